// The tags feature: one assignment table for every tagged model, keyed by model key and id.
// A tag model with a scope (its content types) applies only to the models the scope names:
// any other tag is not found, as Nautobot's TagSerializerField looks tags up for the model.
import type { Knex } from "knex";
import type { TagsField } from "../../descriptor.js";
import { ValidationError } from "../../errors.js";
import { col, ident, literal } from "../../query/sql.js";
import { labelOf, linkedTypes } from "../../kinds/content-types.js";
import { heldRows, oncePerTransaction } from "../../write/lookups.js";
import { linkedRows, listOptions, listRender } from "../../kinds/related.js";
import { FieldProblem, setWork, writeByValue, type Db, type ReadContext, type RuntimeFieldKind, type WriteContext } from "../../kinds/types.js";
import type { ErrorTree } from "../../problems.js";
import { prepared } from "../../db/prepared.js";
import { sendAhead } from "../../db/pipeline.js";

/** SQL condition: the tag aliased `alias` applies to the model written. */
function inScope(f: TagsField, ctx: WriteContext, alias: string): string {
  const scope = f.scope!;
  return `EXISTS (SELECT 1 ${linkedTypes(scope, scope.registry, `${alias}.id`)} AND ${labelOf(scope.registry, "r")} = ${literal(ctx.model.key)})`;
}

/** The tags a written list names, in order and once each, or the per-item errors when one names none for this model. */
async function resolveTags(f: TagsField, items: unknown[], ctx: WriteContext): Promise<{ ids: string[]; errors: ErrorTree | null }> {
  const where = f.scope && ((a: string) => inScope(f, ctx, a));
  // All at once: their lookups share one statement (write/lookups.ts).
  // Tags with a scope are held from here on (holdTags says why): by the lookup that finds them.
  const settled = await Promise.allSettled(items.map((item) => ctx.resolve(f.target, item, false, where, !!f.scope)));
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
 * Holds the tags (FOR KEY SHARE, in id order) until the transaction ends: a write changing a
 * tag's scope holds its row (FOR UPDATE) until it commits, so either it waited for this write
 * and sees its assignments, or this one waited for it, and the statement after this one (the
 * assignments' insert, which checks the scope again) sees the new scope. In the lock's own
 * statement the check would judge the scope as it was before the wait. Held once per set of
 * tags in a transaction: a bulk write's rows share it. Tags named by id were held by the lookup
 * that found them (one round trip less for a write that tags); others (named by attributes) here.
 */
async function holdTags(f: TagsField, ids: string[], ctx: WriteContext): Promise<void> {
  const tagTable = ctx.index.model(f.target).table;
  const held = heldRows(ctx.db);
  if (ids.every((id) => held.has(`${tagTable}:${id}`))) return;
  return oncePerTransaction(ctx.db, `tags-held:${ids.join(",")}`, async () => {
    await ctx.db(tagTable).whereIn("id", ids).orderBy("id").forKeyShare().select("id");
  });
}

/**
 * The insert of the links of rows of the model written (`sources[n]` tagged `targets[n]`), as
 * two arrays whatever their number: one statement, of the same text for every set (planned
 * once per connection), where a list of values bound value by value took longer to parse than
 * to run (2,000 links: 34 ms). With `tags`, it inserts them only if every one of `tags` still
 * applies to the model written: the scope check and the insert are one statement, which
 * inserts no row when a tag fell out of scope.
 */
function insertLinks(f: TagsField, db: Db, sources: Array<string | number>, targets: string[], ctx: WriteContext, tags?: string[]): Knex.Raw {
  const t = f.through;
  const keyType = (integer: boolean) => (integer ? "integer" : "uuid");
  const sourceType = keyType(ctx.index.integerKeys(ctx.model));
  const tagType = keyType(ctx.index.integerKeys(ctx.index.model(f.target)));
  const insert = `insert into ${ident(t.table)} (${ident(t.source)}, ${ident(t.type)}, ${ident(t.target)}) ` +
    `SELECT v.s, ?::text, v.t FROM unnest(?::${sourceType}[], ?::${tagType}[]) AS v(s, t)`;
  const bindings = [ctx.model.key, sources, targets] as unknown as Knex.RawBinding[];
  if (!tags) return prepared(db.raw(insert, bindings));
  return prepared(db.raw(
    `${insert} WHERE (SELECT count(*) FROM ${ident(ctx.index.model(f.target).table)} t0 WHERE t0.id = ANY(?::${tagType}[]) AND ${inScope(f, ctx, "t0")}) = ? RETURNING 1`,
    [...bindings, tags, tags.length] as unknown as Knex.RawBinding[],
  ));
}

/** Refuses the first row whose tags do not all apply to its model, with the errors its list of tags gets. */
async function refuseOutOfScope(f: TagsField, payloads: Array<{ items: unknown[]; ctx: WriteContext }>): Promise<never> {
  for (const p of payloads) {
    const { errors } = await resolveTags(f, p.items, p.ctx);
    if (errors) throw new ValidationError({ [f.name]: errors });
  }
  throw new Error(`tags ${f.name}: out of scope when inserted, but each found in scope again`);
}

/**
 * Gives each written row the tags its write named, for a whole set of rows at once: one lock
 * of their tags, one delete of what updated rows had, one insert (the scope check in it).
 */
async function assign(f: TagsField, db: Db, rows: Array<{ id: string | number; payload: { items: unknown[]; ids: string[]; ctx: WriteContext } }>): Promise<void> {
  const t = f.through;
  const { ctx } = rows[0].payload;
  const type = ctx.model.key;
  const tags = [...new Set(rows.flatMap((r) => r.payload.ids))].sort();
  const checked = !!f.scope && tags.length > 0;
  if (checked) await holdTags(f, tags, ctx);
  // A row just made has no tags to replace.
  // A write sending its statements ahead sends these so too, the scope's verdict taken later.
  const run = <T>(query: Knex.QueryBuilder | Knex.Raw, then?: (result: T) => unknown, holds?: string) =>
    ctx.ahead ? sendAhead(db, query, { then, holds }) : (query as unknown as Promise<T>).then(then);
  const updated = rows.filter((r) => r.payload.ctx.id !== null).map((r) => r.id);
  if (updated.length) await run(db(t.table).where(t.type, type).whereIn(t.source, updated).del());
  const sources = rows.flatMap(({ id, payload }) => payload.ids.map(() => id));
  if (!sources.length) return;
  const targets = rows.flatMap(({ payload }) => payload.ids);
  if (!checked) await run(insertLinks(f, db, sources, targets, ctx));
  else {
    await run(insertLinks(f, db, sources, targets, ctx, tags), (result: { rowCount?: number | null }) =>
      (Number(result.rowCount ?? 0) === 0 ? refuseOutOfScope(f, rows.map((r) => r.payload)) : undefined), "EXISTS (SELECT 1 FROM r)");
  }
}

/** The tags of the object `ctx` reads, through the assignments of its type. */
const tagRows = (f: TagsField, ctx: ReadContext) => linkedRows(ctx.index.model(f.target), f.through.table, f.through.target,
  `${col("j", f.through.type)} = ${literal(ctx.model.key)} AND ${col("j", f.through.source)} = ${col(ctx.alias, "id")}`);

export const tags: RuntimeFieldKind<TagsField> = {
  read: (f, ctx) => ctx.nestedList(ctx.index.model(f.target), tagRows(f, ctx)),
  render: (f, ctx) => listRender(ctx.index.model(f.target), ctx),
  json: (f, ctx) => ctx.nestedListJson(ctx.index.model(f.target), tagRows(f, ctx)),
  /** Refused as DRF's list serializer refuses a list of nested objects: one entry per item, `{}` for the good ones. */
  ...writeByValue<TagsField, { items: unknown[]; ids: string[] }>({
    async resolve(f, value, ctx) {
      if (value === null) throw new FieldProblem({ code: "null" });
      if (!Array.isArray(value)) {
        const problem = { code: "not_a_list", given: value } as const;
        throw new FieldProblem(problem, { non_field_errors: [problem] });
      }
      const { ids, errors } = await resolveTags(f, value, ctx);
      if (errors) throw new FieldProblem({ code: "related_objects_not_found" }, errors);
      return { items: value, ids };
    },
    apply(f, { items, ids }, ctx, afterSave) {
      afterSave.push(setWork(`tags ${f.name}`, { items, ids, ctx }, (db, rows) => assign(f, db, rows)));
    },
  }),
  checksOwnValue: true,
  async onDelete(f, db, model, ids) {
    await db(f.through.table).where({ [f.through.type]: model.key }).whereIn(f.through.source, ids).del();
  },
  options: { type: () => "field", describe: (f, info, ctx) => listOptions(f.target, info, ctx) },
};
