// The custom-fields feature: a JSON object column keyed by custom-field name. A read shows
// every field defined for the model (value or null) from the definitions in the same
// statement; a write merges the given keys into the stored ones and is judged as Nautobot's
// CustomFieldModel.clean judges it, once the other fields are valid. API versions from the
// definitions' `slugKeysSince` show and take the values keyed by slug (CustomFieldsDataField).
import type { CustomFieldsField } from "../../descriptor.js";
import { ValidationError } from "../../errors.js";
import { definitionsOf, keyColumn, writeDefinitions, type CustomFieldDefinition } from "./definitions.js";
import { cleanData, defaults } from "./values.js";
import { col, ident, literal } from "../../query/sql.js";
import { javascriptKeyOrder, jsonbJson } from "../../query/json-text.js";
import { lookupsOf } from "../../write/lookups.js";
import { FieldProblem, isPlainObject, type RuntimeFieldKind, type WriteContext } from "../../kinds/types.js";

/** What a write of the field found, for the check that follows the other fields'. */
const pending = new WeakMap<WriteContext, { defs: CustomFieldDefinition[]; data: Record<string, unknown> }>();

function judge(f: CustomFieldsField, ctx: WriteContext, defs: CustomFieldDefinition[], data: Record<string, unknown>): void {
  const clean = cleanData(defs, data);
  if ("error" in clean) throw new ValidationError({ __all__: [clean.error] });
  ctx.row[f.column] = JSON.stringify(clean.data);
}

/**
 * Written values keyed by name, as the data keeps them: through a slug-keyed version each key
 * that is some definition's slug (of any model) becomes its name and other keys are dropped.
 */
async function byName(f: CustomFieldsField, value: Record<string, unknown>, ctx: WriteContext): Promise<Record<string, unknown>> {
  const d = f.definitions;
  if (!d || keyColumn(d, ctx.version, ctx.index.api.versions.supported) !== "slug") return value;
  const keys = Object.keys(value);
  if (!keys.length) return {};
  const rows: Array<{ name: string; slug: string }> = (await ctx.db.raw(`SELECT d.name, d.slug FROM ${ident(d.table)} d WHERE d.slug = ANY(?)`, [keys])).rows;
  return Object.fromEntries(rows.map((r) => [r.name, value[r.slug]]));
}

/**
 * `FROM` the model's definitions as rows `u` (key shown, name stored under, n-th in `order`):
 * read once per statement (uncorrelated sub-selects, which PostgreSQL runs once), not per row.
 */
function definedFields(d: NonNullable<CustomFieldsField["definitions"]>, model: string, key: string, order: string): string {
  const listed = (column: string) => `(SELECT array_agg(${column} ORDER BY ${order}) ${definitionsOf(d, literal(model))})`;
  return `FROM unnest(${listed(key)}, ${listed("d.name")}) WITH ORDINALITY AS u(key, name, n)`;
}

export const customFields: RuntimeFieldKind<CustomFieldsField> = {
  read(f, { alias, model, version, index }) {
    const d = f.definitions;
    if (!d) return `'{}'::json`;
    const key = keyColumn(d, version, index.api.versions.supported);
    return `(SELECT coalesce(json_object_agg(u.key, ${col(alias, f.column)} -> u.name ORDER BY u.n), '{}'::json) ${definedFields(d, model.key, `d.${key}`, "d.weight, d.name")})`;
  },
  // JSON.parse of the object json_object_agg writes puts array-index keys first.
  json(f, { alias, model, version, index }) {
    const d = f.definitions;
    if (!d) return "'{}'";
    const key = `d.${keyColumn(d, version, index.api.versions.supported)}`;
    const values = `(SELECT '{' || coalesce(string_agg(to_json(u.key)::text || ':' || ${jsonbJson(`${col(alias, f.column)} -> u.name`)}, ',' ORDER BY u.n), '') || '}' ` +
      `${definedFields(d, model.key, key, `${javascriptKeyOrder(key)}, d.weight, d.name`)})`;
    // Asked once per statement (uncorrelated): a model without definitions, the usual case,
    // spends no sub-select on each row.
    return `CASE WHEN EXISTS (SELECT 1 ${definitionsOf(d, literal(model.key))}) THEN ${values} ELSE '{}' END`;
  },
  // Asked for as the write starts, so the read rides with its reference checks.
  prefetch: (f, ctx) => (f.definitions ? writeDefinitions(ctx.db, f.definitions, ctx.model.key) : undefined),
  async write(f, given, ctx) {
    if (!isPlainObject(given)) throw new FieldProblem({ code: "custom_fields_not_a_dict" });
    const value = await byName(f, given, ctx);
    const defs = f.definitions ? await writeDefinitions(ctx.db, f.definitions, ctx.model.key) : [];
    // The stored values ride in the statement of the write's reference checks: a bulk update
    // reads every element's in that one statement.
    const stored = ctx.id === null
      ? {}
      : ((await lookupsOf(ctx.db).rows<{ data: Record<string, unknown> | null }>(
        `SELECT ${col("t", f.column)} AS data FROM ${ident(ctx.model.table)} t WHERE t.id = ?`, [ctx.id]))[0]?.data ?? {});
    pending.set(ctx, { defs, data: { ...stored, ...value } });
  },
  checksOwnValue: true,
  storesJson: () => true,
  async onCreate(f, ctx) {
    const given = pending.get(ctx);
    if (given) return judge(f, ctx, given.defs, given.data);
    const defs = f.definitions ? await writeDefinitions(ctx.db, f.definitions, ctx.model.key) : [];
    // Keyed as the request's version keys them, as Nautobot's CreateOnlyDefault makes them
    // (clean then fills the names a slug key left out).
    const slugs = f.definitions && keyColumn(f.definitions, ctx.version, ctx.index.api.versions.supported) === "slug";
    judge(f, ctx, defs, defaults(defs, slugs ? "slug" : "name"));
  },
  onUpdate(f, ctx) {
    const given = pending.get(ctx);
    if (given) judge(f, ctx, given.defs, given.data);
  },
  options: { type: () => "field" },
};

