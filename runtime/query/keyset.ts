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
 * SQL conditions, one a branch, whose union is the rows sorting after the one whose values are
 * `after` (text, null for NULL, one per term), each read as its term's type in `types`. Each
 * branch fixes the terms before one and bounds that one (NULLs where the term sorts them), so
 * each is a range of the order's index, read in order: a page deep in a long list is found
 * without reading the rows before it.
 */
export function afterBranches(terms: OrderTerm[], types: string[], after: Array<string | null>): Array<{ sql: string; bindings: string[] }> {
  const branches: Array<{ sql: string; bindings: string[] }> = [];
  const fixed: string[] = [];
  const fixedBindings: string[] = [];
  terms.forEach((t, i) => {
    const v = after[i];
    const value = `CAST(? AS ${types[i]})`;
    // PostgreSQL puts NULLs first when descending unless told otherwise.
    const nullsFirst = t.nullsFirst || t.desc;
    const later: Array<{ sql: string; bindings: string[] }> = [];
    if (v === null) {
      if (nullsFirst) later.push({ sql: `(${t.sql}) IS NOT NULL`, bindings: [] });
    } else {
      later.push({ sql: `(${t.sql}) ${t.desc ? "<" : ">"} ${value}`, bindings: [v] });
      if (!nullsFirst) later.push({ sql: `(${t.sql}) IS NULL`, bindings: [] });
    }
    for (const l of later) branches.push({ sql: [...fixed, l.sql].join(" AND "), bindings: [...fixedBindings, ...l.bindings] });
    if (v === null) fixed.push(`(${t.sql}) IS NULL`);
    else {
      fixed.push(`(${t.sql}) = ${value}`);
      fixedBindings.push(v);
    }
  });
  return branches;
}
