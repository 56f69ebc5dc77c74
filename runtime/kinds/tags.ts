// The tags feature: one assignment table for every tagged model, keyed by model key and id.
// A tag model with a scope (its content types) applies only to the models the scope names:
// any other tag is not found, as Nautobot's TagSerializerField looks tags up for the model.
import type { TagsField } from "../descriptor.js";
import { ValidationError } from "../errors.js";
import { col, ident, literal } from "../query/sql.js";
import { pyType } from "../text/python.js";
import { labelOf, linkedTypes } from "./content-types.js";
import { listOptions, listRender } from "./related.js";
import { FieldProblem, type RuntimeFieldKind, type WriteContext } from "./types.js";

/** The tags a written list names, in order and once each, or the per-item errors when one names none for this model. */
async function resolveTags(f: TagsField, items: unknown[], ctx: WriteContext): Promise<{ ids: string[]; errors: unknown[] | null }> {
  const scope = f.scope;
  const inScope = scope && ((a: string) =>
    `EXISTS (SELECT 1 ${linkedTypes(scope, scope.registry, `${a}.id`)} AND ${labelOf(scope.registry, "r")} = ${literal(ctx.model.key)})`);
  const ids: string[] = [];
  const errors: unknown[] = [];
  for (const item of items) {
    try {
      const id = (await ctx.resolve(f.target, item, false, inScope))!;
      if (!ids.includes(id)) ids.push(id);
      errors.push({});
    } catch (err) {
      if (!(err instanceof FieldProblem)) throw err;
      errors.push([err.message]);
    }
  }
  return { ids, errors: errors.some(Array.isArray) ? errors : null };
}

/**
 * Holds the tags (FOR KEY SHARE, in id order) and checks their scope again: a write changing
 * a tag's scope holds its row (FOR UPDATE) until it commits, so either it waited for this
 * write and sees its assignments, or this one waited for it and sees the new scope here.
 */
async function stillInScope(f: TagsField, items: unknown[], ids: string[], ctx: WriteContext): Promise<void> {
  const tagTable = ctx.index.model(f.target).table;
  await ctx.db(tagTable).whereIn("id", [...ids].sort()).orderBy("id").forKeyShare().select("id");
  const { errors } = await resolveTags(f, items, ctx);
  if (errors) throw new ValidationError({ [f.name]: errors });
}

export const tags: RuntimeFieldKind<TagsField> = {
  read(f, ctx) {
    const t = f.through;
    return ctx.nestedList(ctx.index.model(f.target), (a) =>
      `JOIN ${ident(t.table)} j ON ${col("j", t.target)} = ${a}.id ` +
      `WHERE ${col("j", t.type)} = ${literal(ctx.model.key)} AND ${col("j", t.source)} = ${col(ctx.alias, "id")}`);
  },
  render: (f, ctx) => listRender(ctx.index.model(f.target), ctx),
  /** Refused as DRF's list serializer refuses a list of nested objects: one entry per item, `{}` for the good ones. */
  async write(f, value, ctx) {
    if (value === null) throw new FieldProblem("This field may not be null.");
    if (!Array.isArray(value)) {
      const message = `Expected a list of items but got type "${pyType(value)}".`;
      throw new FieldProblem(message, { non_field_errors: [message] });
    }
    const { ids, errors } = await resolveTags(f, value, ctx);
    if (errors) throw new FieldProblem("Related objects not found.", errors);
    const t = f.through;
    const type = ctx.model.key;
    ctx.afterSave.push(async (id) => {
      if (f.scope && ids.length) await stillInScope(f, value, ids, ctx);
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
