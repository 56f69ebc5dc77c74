// ORDER BY of a model's rows: its ordering's terms, then id. A term through links orders by a
// column of the row they reach. A list's page is chosen with those rows joined (so the
// planner can walk the related table's index and this table's ordering index in step); where
// only a few rows are sorted (a chosen page re-sorted, a nested list) a correlated sub-select
// reads the related column instead, and the statement needs no joins.
import { isLink, sortTerms, type ModelDescriptor, type Ordering, type SortTerm } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { col, ident } from "./sql.js";

/**
 * A table joined for ordering: aliased `alias`, its id equal to `on` (a qualified column);
 * `left` where the link may be null, so rows without it stay (their term null, as in Django).
 * Through links that are never null the join is inner, as Django's is, which lets the planner
 * drive the walk from the related table's index.
 */
interface OrderJoin { table: string; alias: string; on: string; left: boolean }

/** One term of an order: an SQL expression and its direction. */
export interface OrderTerm {
  sql: string;
  desc: boolean;
  /** Where NULLs sort as written; PostgreSQL's default otherwise (last ascending, first descending). */
  nullsFirst: boolean;
}

/**
 * ORDER BY of `m`'s rows aliased `alias` by `ordering`, then by id: the terms the generator's
 * ordering index holds too (sortTerms), so a page is read off that index. Given `joins`, terms
 * through links read joined rows and push the JOIN clauses they need there (one a
 * path); without it they read correlated sub-selects.
 */
export function orderSql(index: ModelIndex, m: ModelDescriptor, ordering: Ordering[], alias: string, joins?: string[]): string {
  return termsSql(orderTerms(index, m, ordering, alias, joins));
}

/** ORDER BY of `terms`. */
export const termsSql = (terms: OrderTerm[]): string =>
  terms.map((t) => `${t.sql} ${t.desc ? "DESC" : "ASC"}${t.nullsFirst ? " NULLS FIRST" : ""}`).join(", ");

/** The terms of `orderSql`, one by one. */
export function orderTerms(index: ModelIndex, m: ModelDescriptor, ordering: Ordering[], alias: string, joins?: string[]): OrderTerm[] {
  const joined = new Map<string, OrderJoin>();
  const term = (t: SortTerm, column: (name: string) => string): OrderTerm => {
    const c = column(t.column);
    return { sql: t.expression ? t.expression(c) : c, desc: t.desc, nullsFirst: t.nullsFirst };
  };
  const parts = ordering.flatMap((o) => {
    const through = o.through ?? [];
    if (!through.length) return sortTerms(index.field(m, o.field)!, o.desc).map((t) => term(t, (c) => col(alias, c)));
    const chain = joins ? joined : new Map<string, OrderJoin>();
    const reached = reach(index, m, through, alias, chain);
    const terms = sortTerms(index.field(reached.model, o.field)!, o.desc);
    if (joins) return terms.map((t) => term(t, (c) => col(reached.alias, c)));
    const [first, ...rest] = [...chain.values()];
    const from = [`${ident(first.table)} ${first.alias}`, ...rest.map(joinSql)].join(" ");
    return terms.map((t) => term(t, (c) => `(SELECT ${col(reached.alias, c)} FROM ${from} WHERE ${first.alias}.id = ${first.on})`));
  });
  joins?.push(...[...joined.values()].map(joinSql));
  const byId = ordering.some((o) => o.field === "id" && !o.through?.length);
  return byId ? parts : [...parts, { sql: col(alias, "id"), desc: false, nullsFirst: false }];
}

/** The model `through` leads to from `m` and its alias, adding to `chain` the joins not yet there. */
function reach(index: ModelIndex, m: ModelDescriptor, through: string[], alias: string, chain: Map<string, OrderJoin>): { model: ModelDescriptor; alias: string } {
  let model = m;
  let at = alias;
  // Past a link that may be null, every join is left, or it would drop the rows without it.
  let left = false;
  for (let i = 0; i < through.length; i++) {
    const link = index.field(model, through[i]);
    if (!link || !isLink(link)) throw new Error(`${m.key}: ordering path ${through.join(".")} does not follow links`);
    const key = through.slice(0, i + 1).join(".");
    const target = index.model(link.target);
    let join = chain.get(key);
    if (!join) {
      join = { table: target.table, alias: `${alias}_o${chain.size + 1}`, on: col(at, link.column), left: left || link.nullable };
      chain.set(key, join);
    }
    model = target;
    at = join.alias;
    left = join.left;
  }
  return { model, alias: at };
}

function joinSql(j: OrderJoin): string {
  return `${j.left ? "LEFT " : ""}JOIN ${ident(j.table)} ${j.alias} ON ${j.alias}.id = ${j.on}`;
}
