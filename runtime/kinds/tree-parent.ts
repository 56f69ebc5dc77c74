// A tree node's parent: a link to the same model that may not close a cycle.
import type { TreeParentField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import { col, ident } from "../query/sql.js";
import { link } from "./fk.js";
import { FieldProblem, type RuntimeFieldKind } from "./types.js";

export const treeParent: RuntimeFieldKind<TreeParentField> = {
  read: (f, ctx) => (f.asId ? col(ctx.alias, f.column) : link.read(f, ctx)),
  render: (f, ctx) => (f.asId ? (v) => v ?? null : link.render(f, ctx)),
  json: (f, ctx) => (f.asId ? scalarJson(col(ctx.alias, f.column)) : link.json(f, ctx)),
  async write(f, value, ctx) {
    const parent = await ctx.resolve(f.target, value, true);
    if (ctx.id && parent) {
      const table = ident(ctx.model.table);
      const res = await ctx.db.raw(`WITH RECURSIVE sub AS (SELECT id FROM ${table} WHERE id = ? UNION ALL ` +
        `SELECT c.id FROM ${table} c JOIN sub ON ${col("c", f.column)} = sub.id) SELECT 1 FROM sub WHERE id = ?`, [ctx.id, parent]);
      if (res.rows.length) throw new FieldProblem({ code: "parent_is_self_or_child" });
    }
    ctx.row[f.column] = parent;
  },
  checksOwnValue: true,
  updatesAlone: () => true,
  options: link.options,
};
