// Membership defined by stored filters: takes a set of rows of one model as a stored filter (a
// dictionary of the model's filter-set parameters) and child sets folded in by set operators,
// gives the filter plan that selects them, so a list reads the members in its one statement,
// never loading rows to compute them. Validates a stored filter as the REST list validates its
// query string. Knows nothing of the model whose rows hold the sets: a hook hands the tree over;
// nor of the features whose filters' names are data: the caller hands their providers over.
import type { Knex } from "knex";
import type { HookDb, ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { checkColumns, FilterCompiler, filterErrors, type DynamicFilterProvider, type FilterErrors, type FilterPlan } from "./filters.js";

type Where = (qb: Knex.QueryBuilder) => void;

export type SetOperator = "union" | "intersection" | "difference";

/**
 * A set of rows: those its filter selects (every row when the filter is empty), narrowed to
 * what its steps give. The steps fold left to right from no set at all: the first gives its
 * members (or, for a difference, every row but them), each next one combines with the result.
 * A set that selects nothing in particular (an empty filter and no steps) takes no part in a
 * fold, as an empty Q object in Django's `&`, `|` and `~`.
 */
export interface MemberSet {
  filter: Record<string, unknown>;
  steps: Array<{ operator: SetOperator; set: MemberSet }>;
}

const compilers = new WeakMap<ModelIndex, FilterCompiler>();

function compilerOf(index: ModelIndex): FilterCompiler {
  let compiler = compilers.get(index);
  if (!compiler) compilers.set(index, (compiler = new FilterCompiler(index)));
  return compiler;
}

/**
 * A stored filter as query parameters: a list gives several values, a scalar one (Python's
 * `str()` of a boolean), null none (a form field left empty, which filters nothing).
 */
export function filterParams(filter: Record<string, unknown>): Map<string, string[]> {
  const text = (v: unknown): string => (typeof v === "boolean" ? (v ? "True" : "False") : typeof v === "object" ? JSON.stringify(v) : String(v));
  return new Map(Object.entries(filter).map(([k, v]) => [k, v === null ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== null).map(text)]));
}

/** The models a stored filter is planned over, and the providers of the filters their rows name (custom fields…). */
export interface MemberFilters {
  index: ModelIndex;
  providers: DynamicFilterProvider[];
}

/** The filter planned as the REST list plans its query: the API's strictness, filters named by rows included. */
async function plan(db: HookDb, { index, providers }: MemberFilters, m: ModelDescriptor, filter: Record<string, unknown>) {
  const params = filterParams(filter);
  const strict = index.api.settings.STRICT_FILTERING !== false;
  const names = [...params.keys()];
  const dynamic = (await Promise.all(providers.map((load) => load(db, m, names, { strict })))).filter((d) => d !== null);
  return compilerOf(index).compile(m, params, { strict, reserved: new Set(), dynamic });
}

/** What the REST list of `m` would answer a 400 with for this filter as its query, by parameter; null when it would list. */
export async function filterProblems(db: HookDb, filters: MemberFilters, m: ModelDescriptor, filter: Record<string, unknown>): Promise<FilterErrors | null> {
  const { errors, plan: planned } = await plan(db, filters, m, filter);
  const row = planned.checks.length ? await db.select(...checkColumns(planned.checks).map((c) => db.raw(c.sql, c.bindings as Knex.RawBinding[]))).first() : undefined;
  return filterErrors(planned, errors, row);
}

/**
 * The rows of `m` in `set`, as a filter plan on the row aliased `t0`. A child set is a
 * sub-select of ids, so the operators are exact set operations (a row whose column is null
 * stays out of an intersection and in a difference, as Django's `~Q` keeps it).
 */
export async function membershipPlan(db: HookDb, filters: MemberFilters, m: ModelDescriptor, set: MemberSet): Promise<FilterPlan> {
  const own = async (s: MemberSet): Promise<Where | null> => {
    if (!Object.keys(s.filter).length) return null;
    return (await plan(db, filters, m, s.filter)).plan.apply;
  };
  const ids = (where: Where) => {
    const sub = db(`${m.table} as t0`).select("t0.id");
    where(sub);
    return sub;
  };
  const compile = async (s: MemberSet): Promise<Where | null> => {
    let folded = null as Where | null;
    for (const step of s.steps) {
      const next = await compile(step.set);
      if (!next) continue;
      const sub = ids(next);
      const prior: Where | null = folded;
      if (!prior) folded = step.operator === "difference" ? (qb) => qb.whereNotIn("t0.id", sub) : (qb) => qb.whereIn("t0.id", sub);
      else if (step.operator === "union") folded = (qb) => qb.where((b) => { b.where((x) => prior(x)).orWhereIn("t0.id", sub); });
      else if (step.operator === "intersection") folded = (qb) => qb.where((b) => prior(b)).whereIn("t0.id", sub);
      else folded = (qb) => qb.where((b) => prior(b)).whereNotIn("t0.id", sub);
    }
    const filter = await own(s);
    if (filter && folded) {
      const f = filter, c = folded;
      return (qb) => qb.where((b) => f(b)).where((b) => c(b));
    }
    return filter ?? folded;
  };
  const where = await compile(set);
  // What the data must confirm was confirmed when the filters were saved: a stored name that
  // has since gone selects nothing rather than refusing the list.
  return { apply: where ?? (() => undefined), checks: [], order: [], valueSensitive: true };
}
