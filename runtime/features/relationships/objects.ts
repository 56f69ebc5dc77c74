// What the relationship rules need to know about the objects at either end: their `str()`
// (Nautobot's messages name them), and whether one passes a side's filter restriction.
import type { Db } from "../../kinds/types.js";
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { FilterErrors, FilterPlan } from "../../query/filters.js";

/**
 * What these rules borrow from the engine's query builders, lent by the store that owns them
 * for its model index: the builders depend on the field kinds, which depend on these rules,
 * so importing them here would close a loop.
 */
export interface ObjectQueries {
  displayExpr(m: ModelDescriptor, alias: string): string;
  compileFilter(m: ModelDescriptor, params: Map<string, string[]>): { errors: FilterErrors; plan: FilterPlan };
}

const lent = new WeakMap<ModelIndex, ObjectQueries>();

export function lendObjectQueries(index: ModelIndex, queries: ObjectQueries): void {
  lent.set(index, queries);
}

function toolsOf(index: ModelIndex): ObjectQueries {
  const q = lent.get(index);
  if (!q) throw new Error(`no store serves the models of API ${index.api.name}`);
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
