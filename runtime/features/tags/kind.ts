// The tags feature: one assignment table for every tagged model, keyed by model key and id.
// A tag model with a scope (its content types) applies only to the models the scope names:
// any other tag is not found, as Nautobot's TagSerializerField looks tags up for the model.
import type { TagsField } from "../../descriptor.js";
import { ValidationError } from "../../errors.js";
import { col, ident, literal } from "../../query/sql.js";
import { labelOf, linkedTypes } from "../../kinds/content-types.js";
import { oncePerTransaction } from "../../write/lookups.js";
import { listOptions, listRender } from "../../kinds/related.js";
import { FieldProblem, setWork, type Db, type RuntimeFieldKind, type WriteContext } from "../../kinds/types.js";
import type { ErrorTree } from "../../problems.js";
import { chunksWithin } from "../../db/chunks.js";

/** SQL condition: the tag aliased `alias` applies to the model written. */
function inScope(f: TagsField, ctx: WriteContext, alias: string): string {
  const scope = f.scope!;
  return `EXISTS (SELECT 1 ${linkedTypes(scope, scope.registry, `${alias}.id`)} AND ${labelOf(scope.registry, "r")} = ${literal(ctx.model.key)})`;
}

/** The tags a written list names, in order and once each, or the per-item errors when one names none for this model. */
async function resolveTags(f: TagsField, items: unknown[], ctx: WriteContext): Promise<{ ids: string[]; errors: ErrorTree | null }> {
  const where = f.scope && ((a: string) => inScope(f, ctx, a));
  // All at once: their lookups share one statement (write/lookups.ts).
  const settled = await Promise.allSettled(items.map((item) => ctx.resolve(f.target, item, false, where)));
  const ids: string[] = [];
  const errors = settled.map((r): ErrorTree => {
    if (r.status === "fulfilled") {
      if (!ids.includes(r.value!)) ids.push(r.value!);
      return {};
    }
    if (!(r.reason instanceof FieldProblem)) throw r.reason;
    return [r.reason.problem];
  });
  return { ids, errors: errors.some(Array.isArray) ? errors : null };
}

/**
 * Holds the tags (FOR KEY SHARE, in id order), then checks their scope again: a write changing
 * a tag's scope holds its row (FOR UPDATE) until it commits, so either it waited for this
 * write and sees its assignments, or this one waited for it and sees the new scope here. The
 * check is a statement of its own, after the lock: one statement would judge the scope as it
 * was before the wait. Once held in this transaction, a tag's scope cannot change before it
 * ends, so a bulk write does this once for each set of tags.
 */
async function stillInScope(f: TagsField, items: unknown[], ids: string[], ctx: WriteContext): Promise<void> {
  const tagTable = ctx.index.model(f.target).table;
  const sorted = [...ids].sort();
  const applying = await oncePerTransaction(ctx.db, `tags-held:${ctx.model.key}:${sorted.join(",")}`, async () => {
    await ctx.db(tagTable).whereIn("id", sorted).orderBy("id").forKeyShare().select("id");
    return (await ctx.db(`${tagTable} as t0`).whereIn("t0.id", sorted).whereRaw(inScope(f, ctx, "t0")).count({ n: "*" }))[0].n;
  });
  if (Number(applying) === ids.length) return;
  const { errors } = await resolveTags(f, items, ctx);
  if (errors) throw new ValidationError({ [f.name]: errors });
}

/**
 * Gives each written row the tags its write named, for a whole set of rows at once: one scope
 * check per distinct set of tags, one delete of what updated rows had, one insert.
 */
async function assign(f: TagsField, db: Db, rows: Array<{ id: string | number; payload: { items: unknown[]; ids: string[]; ctx: WriteContext } }>): Promise<void> {
  const t = f.through;
  const type = rows[0].payload.ctx.model.key;
  if (f.scope) for (const { payload: p } of rows) if (p.ids.length) await stillInScope(f, p.items, p.ids, p.ctx);
  // A row just made has no tags to replace.
  const updated = rows.filter((r) => r.payload.ctx.id !== null).map((r) => r.id);
  if (updated.length) await db(t.table).where(t.type, type).whereIn(t.source, updated).del();
  const links = rows.flatMap(({ id, payload }) => payload.ids.map((tag) => ({ [t.target]: tag, [t.type]: type, [t.source]: id })));
  for (const part of chunksWithin(links)) await db(t.table).insert(part);
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
    if (value === null) throw new FieldProblem({ code: "null" });
    if (!Array.isArray(value)) {
      const problem = { code: "not_a_list", given: value } as const;
      throw new FieldProblem(problem, { non_field_errors: [problem] });
    }
    const { ids, errors } = await resolveTags(f, value, ctx);
    if (errors) throw new FieldProblem({ code: "related_objects_not_found" }, errors);
    ctx.afterSave.push(setWork(`tags ${f.name}`, { items: value, ids, ctx }, (db, rows) => assign(f, db, rows)));
  },
  checksOwnValue: true,
  async onDelete(f, db, model, ids) {
    await db(f.through.table).where({ [f.through.type]: model.key }).whereIn(f.through.source, ids).del();
  },
  options: { type: () => "field", describe: (f, info, ctx) => listOptions(f.target, info, ctx) },
};
