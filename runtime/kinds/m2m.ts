// A many-to-many link through a join table: read as a list, written as a list of
// references that replaces the set once the row exists.
import type { M2mField } from "../descriptor.js";
import { pyType } from "../text/python.js";
import { FieldProblem, isPlainObject, type Db, type ReadContext, type WriteContext } from "./types.js";
import { integerKey, isUuid } from "../query/filters.js";
import { col, ident } from "../query/sql.js";
import { listOptions, listRender } from "./related.js";
import type { RuntimeFieldKind } from "./types.js";

export const m2m: RuntimeFieldKind<M2mField> = {
  read(f, ctx) {
    const t = f.through;
    const target = ctx.index.model(f.target);
    const key = keyShown(f, ctx);
    if (key) {
      const c = col("x", key);
      return `(SELECT coalesce(json_agg(${c} ORDER BY ${c}), '[]'::json) FROM ${ident(target.table)} x ` +
        `JOIN ${ident(t.table)} j ON ${col("j", t.target)} = x.id WHERE ${col("j", t.source)} = ${col(ctx.alias, "id")})`;
    }
    return ctx.nestedList(target, (a) =>
      `JOIN ${ident(t.table)} j ON ${col("j", t.target)} = ${a}.id WHERE ${col("j", t.source)} = ${col(ctx.alias, "id")}`);
  },
  render: (f, ctx) => (keyShown(f, ctx) ? (v) => v : listRender(ctx.index.model(f.target), ctx)),
  async write(f, value, ctx) {
    const ids = f.bySlug ? await bySlug(f, value, ctx) : await byPk(f, value, ctx);
    ctx.links[f.name] = ids;
    ctx.afterSave.push((id) => replaceLinks(ctx.db, f, id, ids));
  },
  checksOwnValue: true,
  options: { type: () => "field", describe: (f, info, ctx) => listOptions(f.target, info, ctx) },
};

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

/**
 * Ids, refused in the words of DRF's PrimaryKeyRelatedField (Nautobot's SerializedPKRelatedField);
 * an attribute dictionary is taken too, as for any related object in this API. Distinct, in order.
 */
async function byPk(f: M2mField, value: unknown, ctx: WriteContext): Promise<string[]> {
  if (!Array.isArray(value)) throw new FieldProblem(`Expected a list of items but got type "${pyType(value)}".`);
  const target = ctx.index.model(f.target);
  const table = target.table;
  const integerKeys = ctx.index.integerKeys(target);
  const ids: string[] = [];
  for (const item of value) {
    let id: string;
    if (isPlainObject(item)) id = (await ctx.resolve(f.target, item, false))!;
    else if (typeof item === "boolean") throw new FieldProblem("Incorrect type. Expected pk value, received bool.");
    else if (integerKeys) {
      // An integer key (Django's AutoField): a whole number or its digits; null, or a number
      // the column cannot hold, names no row.
      const whole = item === null || (typeof item === "number" && Number.isInteger(item)) || (typeof item === "string" && /^\d+$/.test(item));
      if (!whole) throw new FieldProblem(`Incorrect type. Expected pk value, received ${pyType(item)}.`);
      const key = integerKey(item);
      const row = key === null ? undefined : await ctx.db(table).where({ id: key }).first("id");
      if (!row) throw new FieldProblem(`Invalid pk "${item === null ? "None" : String(item)}" - object does not exist.`);
      id = String(row.id);
    }
    // Django reads null as no object and a whole number as the UUID of that value: neither names one.
    else if (item === null || Number.isInteger(item)) throw new FieldProblem(`Invalid pk "${item === null ? "None" : item}" - object does not exist.`);
    else if (typeof item !== "string" || !isUuid(item)) throw new FieldProblem(`“${typeof item === "string" ? item : JSON.stringify(item)}” is not a valid UUID.`);
    else {
      const row = await ctx.db(table).where({ id: item }).first("id");
      if (!row) throw new FieldProblem(`Invalid pk "${item}" - object does not exist.`);
      id = String(row.id);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Slugs as ids, refused in SlugRelatedField's words when one names nothing. */
async function bySlug(f: M2mField, value: unknown, ctx: WriteContext): Promise<string[]> {
  if (!Array.isArray(value)) throw new FieldProblem(`Expected a list of items but got type "${pyType(value)}".`);
  const table = ctx.index.model(f.target).table;
  const ids: string[] = [];
  for (const slug of value) {
    if (typeof slug !== "string") throw new FieldProblem("Invalid value.");
    const row = await ctx.db(table).where({ slug }).first("id");
    if (!row) throw new FieldProblem(`Object with slug=${slug} does not exist.`);
    ids.push(String(row.id));
  }
  return ids;
}
