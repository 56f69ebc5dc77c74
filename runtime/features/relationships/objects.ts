// What the relationship rules need to know about the objects at either end: their `str()`
// (Nautobot's messages name them), and whether one passes a side's filter restriction.
import type { Db } from "../../kinds/types.js";
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { FilterCompiler, type FilterErrors, type FilterPlan } from "../../query/filters.js";
import { ReadPlans } from "../../query/read-plan.js";

/** What these rules ask of the engine's query builders: objects' display text, and their filter sets. */
interface ObjectQueries {
  displayExpr(m: ModelDescriptor, alias: string): string;
  compileFilter(m: ModelDescriptor, params: Map<string, string[]>): { errors: FilterErrors; plan: FilterPlan };
}

const made = new WeakMap<ModelIndex, ObjectQueries>();

/** The query builders over the api's models, made once per model index. */
function toolsOf(index: ModelIndex): ObjectQueries {
  let q = made.get(index);
  if (!q) {
    const plans = new ReadPlans(index);
    const filters = new FilterCompiler(index);
    made.set(index, (q = {
      displayExpr: (m, alias) => plans.displayExpr(m, alias),
      // Relationship filters are Nautobot filter-set parameters, loosely read: unknown ones are ignored.
      compileFilter: (m, params) => filters.compile(m, params, { strict: false, reserved: new Set() }),
    }));
  }
  return q;
}

/** The object's display string, or its id when it cannot be found (Nautobot's `get_source() or source_id`). */
export async function objectText(db: Db, index: ModelIndex, key: string, id: string): Promise<string> {
  const m = index.byKey.get(key);
  if (!m) return id;
  const row = await db(`${m.table} as t0`).select(db.raw(`${toolsOf(index).displayExpr(m, "t0")} AS display`)).where("t0.id", id).first();
  return row ? String(row.display) : id;
}

/** A JSON filter as query parameters: lists give several values, scalars one. */
function params(filter: Record<string, unknown>): Map<string, string[]> {
  return new Map(Object.entries(filter).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map((x) => (x === null ? "" : String(x)))]));
}

/** The filter set's complaints about a filter's values (unknown parameters aside), by parameter. */
export function filterValueErrors(index: ModelIndex, m: ModelDescriptor, filter: Record<string, unknown>): FilterErrors {
  return toolsOf(index).compileFilter(m, params(filter)).errors;
}

/** Whether the object passes the filter (Nautobot's filterset(...).qs.filter(id=...).exists()). */
export async function passesFilter(db: Db, index: ModelIndex, m: ModelDescriptor, filter: Record<string, unknown>, id: string): Promise<boolean> {
  const { plan } = toolsOf(index).compileFilter(m, params(filter));
  const qb = db(`${m.table} as t0`).select("t0.id").where("t0.id", id);
  plan.apply(qb);
  return (await qb.first()) !== undefined;
}
