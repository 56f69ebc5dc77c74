// A count of another model's rows pointing here (and at descendants, for trees), in SQL, or
// the column that keeps it.
import type { CountField } from "../descriptor.js";
import { col, ident, literal } from "../query/sql.js";
import { parentColumn } from "./tree.js";
import type { RuntimeFieldKind } from "./types.js";

export const count: RuntimeFieldKind<CountField> = {
  read(f, { model, alias }) {
    const c = f.count;
    if (c.stored) return col(alias, c.stored);
    // Through a generic reference the type column names this model too; the pair's index serves both.
    const typed = c.typed ? ` AND ${col("c", c.typed.column)} = ${literal(c.typed.key)}` : "";
    if (!c.descendants) return `(SELECT count(*) FROM ${ident(c.table)} c WHERE ${col("c", c.column)} = ${col(alias, "id")}${typed})::int`;
    return `(WITH RECURSIVE sub AS (SELECT ${col(alias, "id")} AS id UNION ALL SELECT s.id FROM ${ident(model.table)} s JOIN sub ON ${col("s", parentColumn(model))} = sub.id) ` +
      `SELECT count(*) FROM ${ident(c.table)} c WHERE ${col("c", c.column)} IN (SELECT id FROM sub)${typed})::int`;
  },
  json: (f, ctx) => `coalesce((${count.read!(f, ctx)})::text, 'null')`,
  options: { type: () => "integer" },
};
