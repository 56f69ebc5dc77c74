// The tags feature: one assignment table for every tagged model, keyed by model key and id.
import type { TagsField } from "../descriptor.js";
import { col, ident, literal } from "../query/sql.js";
import { listOptions, listRender, resolveList } from "./related.js";
import type { RuntimeFieldKind } from "./types.js";

export const tags: RuntimeFieldKind<TagsField> = {
  read(f, ctx) {
    const t = f.through;
    return ctx.nestedList(ctx.index.model(f.target), (a) =>
      `JOIN ${ident(t.table)} j ON ${col("j", t.target)} = ${a}.id ` +
      `WHERE ${col("j", t.type)} = ${literal(ctx.model.key)} AND ${col("j", t.source)} = ${col(ctx.alias, "id")}`);
  },
  render: (f, ctx) => listRender(ctx.index.model(f.target), ctx),
  async write(f, value, ctx) {
    const ids = await resolveList(f.target, value, ctx);
    const t = f.through;
    const type = ctx.model.key;
    ctx.afterSave.push(async (id) => {
      await ctx.db(t.table).where({ [t.type]: type, [t.source]: id }).del();
      if (ids.length) await ctx.db(t.table).insert(ids.map((tag) => ({ [t.target]: tag, [t.type]: type, [t.source]: id })));
    });
  },
  checksOwnValue: true,
  async onDelete(f, db, model, ids) {
    await db(f.through.table).where({ [f.through.type]: model.key }).whereIn(f.through.source, ids).del();
  },
  options: { type: () => "field", describe: (f, info, ctx) => listOptions(f.target, info, ctx) },
};
