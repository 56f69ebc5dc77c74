// Keyset pages: the rows after a given one in a list's order, found from the order's index
// rather than by skipping an offset's worth of rows. A cursor holds the order's values of the
// last row a page showed, as text; they are read back as the types the order's expressions
// have, so a row deleted since still marks its place.
import type { OrderTerm } from "./order.js";

/** Select-list SQL of the order's values of the row aliased as the terms were built, as a JSON array of text. */
export function cursorValues(terms: OrderTerm[]): string {
  return `json_build_array(${terms.map((t) => `(${t.sql})::text`).join(", ")})`;
}

/** SQL giving, for each term, the name of its type (from the expressions alone: no row is read). */
export function cursorTypes(terms: OrderTerm[], table: string, alias: string): string {
  return `SELECT ${terms.map((t, i) => `pg_typeof((SELECT ${t.sql} FROM ${table} ${alias} LIMIT 1))::text AS t${i}`).join(", ")}`;
}

/**
 * SQL condition: the row sorts after the one whose values are `after` (text, null for NULL,
 * one per term), each read as its term's type in `types`. Ties on a term fall to the next;
 * NULLs sort where the term puts them.
 */
export function afterCondition(terms: OrderTerm[], types: string[], after: Array<string | null>): { sql: string; bindings: Array<string | null> } {
  const bindings: Array<string | null> = [];
  const value = (i: number) => {
    bindings.push(after[i]);
    return `CAST(? AS ${types[i]})`;
  };
  const branches = terms.map((t, i) => {
    const equal = terms.slice(0, i).map((e, j) => `(${e.sql}) IS NOT DISTINCT FROM ${value(j)}`);
    const op = t.desc ? "<" : ">";
    // PostgreSQL puts NULLs first when descending unless told otherwise.
    const nullsFirst = t.nullsFirst || t.desc;
    const b = value(i);
    const b2 = value(i);
    const later = nullsFirst
      ? `CASE WHEN ${b} IS NULL THEN (${t.sql}) IS NOT NULL ELSE coalesce((${t.sql}) ${op} ${b2}, false) END`
      : `(${b} IS NOT NULL AND ((${t.sql}) IS NULL OR (${t.sql}) ${op} ${b2}))`;
    return `(${[...equal, `(${later})`].join(" AND ")})`;
  });
  return { sql: `(${branches.join(" OR ")})`, bindings };
}
