// A many-to-many link through a join table: read as a list, written as a list of
// references that replaces the set once the row exists.
import type { M2mField } from "../descriptor.js";
import { FieldProblem, isPlainObject, setWork, type Db, type ReadContext, type WriteContext } from "./types.js";
import { chunksWithin } from "../db/chunks.js";
import { canonicalUuid, integerKey, isUuid } from "../query/filters.js";
import { lookupsOf } from "../write/lookups.js";
import { arrayJson } from "../query/json-text.js";
import { col, ident } from "../query/sql.js";
import { linkedRows, listOptions, listRender } from "./related.js";
import type { RuntimeFieldKind } from "./types.js";

export const m2m: RuntimeFieldKind<M2mField> = {
  read(f, ctx) {
    const { target, key, from, rows } = linked(f, ctx);
    if (key) return `(SELECT coalesce(json_agg(${key} ORDER BY ${key}), '[]'::json) ${from})`;
    return ctx.nestedList(target, rows);
  },
  render: (f, ctx) => (keyShown(f, ctx) ? (v) => v : listRender(ctx.index.model(f.target), ctx)),
  json(f, ctx) {
    const { target, key, from, rows } = linked(f, ctx);
    return key ? arrayJson(`to_json(${key})::text`, from, key) : ctx.nestedListJson(target, rows);
  },
  async write(f, value, ctx, afterSave) {
    const ids = f.bySlug ? await bySlug(f, value, ctx) : await byPk(f, value, ctx);
    ctx.links[f.name] = ids;
    afterSave.push(setWork(`m2m ${f.name}`, { ids, created: ctx.id === null }, (db, rows) => linkSets(db, f, rows)));
  },
  checksOwnValue: true,
  options: { type: () => "field", describe: (f, info, ctx) => listOptions(f.target, info, ctx) },
};

/** The linked rows: the key shown instead of nested objects and the rows it is read from (`x`), or the FROM clause of the nested ones. */
function linked(f: M2mField, ctx: ReadContext) {
  const t = f.through;
  const target = ctx.index.model(f.target);
  const shown = keyShown(f, ctx);
  const rows = linkedRows(target, t.table, t.target, `${col("j", t.source)} = ${col(ctx.alias, "id")}`);
  return { target, key: shown && col("x", shown), from: rows("x"), rows };
}

/** The column of the targets' key the field shows instead of nested objects here (slugs; a key in nested forms), if any. */
function keyShown(f: M2mField, ctx: ReadContext): string | undefined {
  if (f.bySlug) return "slug";
  return f.keyWhenNested && ctx.shape !== "full" ? ctx.index.column(ctx.index.model(f.target), f.keyWhenNested) : undefined;
}

/** Makes `ids` (duplicates dropped) the whole set `f` links row `id` to. */
export async function replaceLinks(db: Db, f: M2mField, id: string | number, ids: Array<string | number>): Promise<void> {
  const t = f.through;
  await db(t.table).where(t.source, id).del();
  const distinct = [...new Set(ids)];
  if (distinct.length) await db(t.table).insert(distinct.map((target) => ({ [t.source]: id, [t.target]: target })));
}

/** Makes each row's set of links the one its write named, for a set of rows at once. */
async function linkSets(db: Db, f: M2mField, rows: Array<{ id: string | number; payload: { ids: Array<string | number>; created: boolean } }>): Promise<void> {
  const t = f.through;
  // A row just made has no links to replace.
  const updated = rows.filter((r) => !r.payload.created).map((r) => r.id);
  if (updated.length) await db(t.table).whereIn(t.source, updated).del();
  const links = rows.flatMap(({ id, payload }) => [...new Set(payload.ids)].map((target) => ({ [t.source]: id, [t.target]: target })));
  for (const part of chunksWithin(links)) await db(t.table).insert(part);
}

/**
 * Ids, refused as DRF's PrimaryKeyRelatedField refuses them (Nautobot's SerializedPKRelatedField);
 * an attribute dictionary is taken too, as for any related object in this API. Distinct, in order.
 */
async function byPk(f: M2mField, value: unknown, ctx: WriteContext): Promise<string[]> {
  if (!Array.isArray(value)) throw new FieldProblem({ code: "not_a_list", given: value });
  const target = ctx.index.model(f.target);
  const integerKeys = ctx.index.integerKeys(target);
  const rows = { select: `SELECT t0.id::text AS k FROM ${ident(target.table)} t0 WHERE t0.id = ANY(?)`, cast: integerKeys ? "integer[]" : "uuid[]" };
  const exists = (key: string) => lookupsOf(ctx.db).has(rows, key);
  const one = async (item: unknown): Promise<string> => {
    if (isPlainObject(item)) return (await ctx.resolve(f.target, item, false))!;
    if (typeof item === "boolean") throw new FieldProblem({ code: "pk_wrong_type", given: item });
    if (integerKeys) {
      // An integer key (Django's AutoField): a whole number or its digits; null, or a number
      // the column cannot hold, names no row.
      const whole = item === null || (typeof item === "number" && Number.isInteger(item)) || (typeof item === "string" && /^\d+$/.test(item));
      if (!whole) throw new FieldProblem({ code: "pk_wrong_type", given: item });
      const key = integerKey(item);
      if (key === null || !(await exists(key))) throw new FieldProblem({ code: "invalid_pk", value: item });
      return key;
    }
    // Django reads null as no object and a whole number as the UUID of that value: neither names one.
    if (item === null || Number.isInteger(item)) throw new FieldProblem({ code: "invalid_pk", value: item });
    if (typeof item !== "string" || !isUuid(item)) throw new FieldProblem({ code: "pk_not_uuid", value: item });
    const key = canonicalUuid(item);
    if (!(await exists(key))) throw new FieldProblem({ code: "invalid_pk", value: item });
    return key;
  };
  // Every item's check at once (one statement with the write's other references); the first
  // item refused, in order, is the one reported, as DRF's field stops at it.
  const settled = await Promise.allSettled(value.map(one));
  const refused = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (refused) throw refused.reason;
  return [...new Set(settled.map((r) => (r as PromiseFulfilledResult<string>).value))];
}

/** Slugs as ids, refused as SlugRelatedField refuses one that names nothing. */
async function bySlug(f: M2mField, value: unknown, ctx: WriteContext): Promise<string[]> {
  if (!Array.isArray(value)) throw new FieldProblem({ code: "not_a_list", given: value });
  const target = ctx.index.model(f.target);
  const slugs = value.filter((v): v is string => typeof v === "string");
  // One read for every slug; the first item refused, in order, is the one reported.
  const found = slugs.length
    ? new Map((await ctx.db(target.table).whereIn(ctx.index.column(target, "slug"), slugs).select("id", `${ctx.index.column(target, "slug")} as slug`) as Array<{ id: unknown; slug: string }>).map((r) => [r.slug, String(r.id)]))
    : new Map<string, string>();
  return value.map((slug) => {
    if (typeof slug !== "string") throw new FieldProblem({ code: "slug_not_string" });
    const id = found.get(slug);
    if (id === undefined) throw new FieldProblem({ code: "slug_not_found", slug });
    return id;
  });
}
