// A tree node's depth: its ancestors, counted up the parent links in SQL.
import type { DepthField } from "../descriptor.js";
import { col, ident } from "../query/sql.js";
import { parentColumn } from "./tree.js";
import type { RuntimeFieldKind } from "./types.js";

export const depth: RuntimeFieldKind<DepthField> = {
  read(f, { model, alias, embedded }) {
    if (f.onlyListed && embedded) return "NULL::integer";
    const parent = parentColumn(model);
    return `(WITH RECURSIVE up AS (SELECT ${col(alias, parent)} AS pid, 0 AS depth UNION ALL ` +
      `SELECT ${col("p", parent)}, up.depth + 1 FROM ${ident(model.table)} p JOIN up ON p.id = up.pid) SELECT max(depth) FROM up)`;
  },
  json: (f, ctx) => `coalesce((${depth.read!(f, ctx)})::text, 'null')`,
  options: { type: () => "integer" },
  madeFromObject: true,
};
