// Small SQL text helpers shared by the read and filter builders: identifier quoting and
// literal quoting for values that come from descriptors (never from requests: request
// values always travel as bind parameters).
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const col = (alias: string, column: string): string => `${alias}.${ident(column)}`;
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** An ILIKE pattern (SQL) matching text that contains the text `expr`, its wildcards taken literally (Django's icontains). */
export const containsPattern = (expr: string): string => `'%' || replace(replace(replace(${expr}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

/**
 * A free-text search over the search terms `values` (an SQL text array, as a filter method
 * gets them): true when `match` (SQL true for the stripped term `v`) accepts one. A term that
 * is blank once stripped matches everything, as a filter set's `search()` returns the queryset
 * untouched for it.
 */
export const textSearch = (values: string, match: (v: string) => string): string =>
  `EXISTS (SELECT 1 FROM unnest(${values}) s(raw), LATERAL (SELECT btrim(s.raw) AS v) t WHERE t.v = '' OR ${match("t.v")})`;

/**
 * The rows of `table`, aliased `alias`, whose keys the SQL array `keys` lists, with each one's
 * place in the list as `armature_n`: every key found through the table's primary key, and the
 * rows joined to others as one set. Joined plainly, the planner hashed a bulk's 1,000 keys
 * against a scan of the whole table, a cost that grew with the table rather than the batch
 * (the statement of a bulk create's answer and change records, at 40,000 prefixes: 133 ms,
 * 125 ms so); probed but not fenced, it joined each row's links inside the probe's loop,
 * building their hash tables a thousand times.
 */
export const keyedRows = (keys: string, table: string, alias: string): string =>
  `(SELECT k.*, w.n AS armature_n FROM ${keys} WITH ORDINALITY AS w(id, n) ` +
  `CROSS JOIN LATERAL (SELECT * FROM ${ident(table)} k WHERE k.id = w.id OFFSET 0) k OFFSET 0) ${alias}`;
