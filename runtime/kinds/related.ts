// What the kinds holding other rows share: rendering nested lists and OPTIONS children.
import type { ModelDescriptor } from "../descriptor.js";
import { col, ident } from "../query/sql.js";
import type { OptionsContext, ReadContext, Render } from "./types.js";

/** The FROM clause of the `target` rows, as `alias`, for which `where(alias)` holds. */
export const rowsWhere = (target: ModelDescriptor, where: (alias: string) => string) =>
  (alias: string) => `FROM ${ident(target.table)} ${alias} WHERE ${where(alias)}`;

/**
 * The FROM clause of the `target` rows, as `alias`, that the rows `j` of a link table name in
 * `column`, for the links `where` (over `j`) picks: each looked up by its key. Left to choose,
 * PostgreSQL reads a small target table whole for every object (every tag, hashed, for each
 * prefix of a page), a cost that grows with the table; OFFSET 0 keeps the lookup as written.
 */
export const linkedRows = (target: ModelDescriptor, table: string, column: string, where: string) =>
  (alias: string) => `FROM ${ident(table)} j CROSS JOIN LATERAL (SELECT * FROM ${ident(target.table)} ${alias} ` +
    `WHERE ${alias}.id = ${col("j", column)} OFFSET 0) ${alias} WHERE ${where}`;

export function listRender(target: ModelDescriptor, ctx: ReadContext): Render {
  const nested = ctx.nestedRenderer(target);
  return (v, rctx) => (v as Array<Record<string, unknown>>).map((o) => nested(o, rctx));
}

/** OPTIONS of a list of related objects: DRF's ListSerializer `child` with the target's nested fields. */
export function listOptions(target: string, info: Record<string, unknown>, ctx: OptionsContext): void {
  const children = ctx.children(target);
  if (children) info.child = { type: "nested object", required: false, read_only: false, children };
}
