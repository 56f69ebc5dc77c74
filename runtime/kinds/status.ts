// A status: the slug of a status row, read as `{value: slug, label: name}` (the name from the
// status row, in the same statement), written as a slug that is lower-cased and must name a
// status of this model (Nautobot's StatusSerializerField); its OPTIONS choices read from the
// rows at each request, so a status added on any instance is offered at once.
import type { ModelDescriptor, StatusField } from "../descriptor.js";
import { ValidationError } from "../errors.js";
import { col, ident, literal } from "../query/sql.js";
import { pyRepr } from "../text/python.js";
import { labelOf } from "./content-types.js";
import { lookupsOf } from "../write/lookups.js";
import { FieldProblem, writeByValue, type Db, type RuntimeFieldKind } from "./types.js";

/** SQL condition: the status row aliased `alias` applies to the field's model. */
export function appliesTo(f: StatusField, alias: string): string {
  const { through, registry } = f.statuses;
  return `EXISTS (SELECT 1 FROM ${ident(through.table)} j JOIN ${ident(registry.table)} r ON r.id = ${col("j", through.target)} ` +
    `WHERE ${col("j", through.source)} = ${col(alias, "id")} AND ${labelOf(registry, "r")} = ${literal(f.contentType)})`;
}

/** The statuses of the field's model as `{value, display}`, in the status model's order (by name). */
export async function statusChoices(f: StatusField, db: Db): Promise<Array<{ value: string; display: string }>> {
  const rows: Array<{ value: string; display: string }> = (await db.raw(
    `SELECT s.slug AS value, s.name AS display FROM ${ident(f.statuses.table)} s WHERE ${appliesTo(f, "s")} ORDER BY s.name, s.id`,
  )).rows;
  return rows.map((r) => ({ value: r.value, display: r.display }));
}

/**
 * Sets the field's `default` status in `row` (what a write through a version that does not
 * show the field gets), refused in Nautobot's words when that status no longer applies to the model.
 */
export async function setDefaultStatus(f: StatusField, db: Db, model: ModelDescriptor, row: Record<string, unknown>): Promise<void> {
  const slug = String(f.default);
  const found = await db.raw(`SELECT 1 FROM ${ident(f.statuses.table)} s WHERE s.slug = ? AND ${appliesTo(f, "s")}`, [slug]);
  if (!found.rows.length) {
    throw new ValidationError({ [f.name]: [{ code: "default_status_missing", model: model.name, slug }] });
  }
  row[f.column] = slug;
}

/**
 * The name of the status whose slug is `slug`: looked up in a map of every status that the
 * statement makes once (an uncorrelated sub-select), not by a sub-select per row.
 */
const statusName = (f: StatusField, slug: string) => `((SELECT jsonb_object_agg(s.slug, s.name) FROM ${ident(f.statuses.table)} s) ->> ${slug})`;

export const status: RuntimeFieldKind<StatusField> = {
  // A scalar subselect on the status's unique slug: an index probe within the one read statement.
  read(f, { alias }) {
    const c = col(alias, f.column);
    return `CASE WHEN ${c} IS NULL THEN NULL ELSE json_build_object('value', ${c}, 'label', ${statusName(f, c)}) END`;
  },
  render: () => (v) => v ?? null,
  json(f, { alias }) {
    const c = col(alias, f.column);
    return `CASE WHEN ${c} IS NULL THEN 'null' ELSE '{"value":' || to_json(${c})::text || ',"label":' || ` +
      `coalesce(to_json(${statusName(f, c)})::text, 'null') || '}' END`;
  },
  ...writeByValue<StatusField, string>({
    async resolve(f, value, ctx) {
      // DRF's related fields take "" as no value.
      if (value === null || value === "") throw new FieldProblem({ code: "null" });
      // Django compares anything else by its text (str() of a number, list or dict).
      const slug = typeof value === "string" ? value.toLowerCase() : pyRepr(value);
      const statuses = { select: `SELECT s.slug AS k FROM ${ident(f.statuses.table)} s WHERE s.slug = ANY(?) AND ${appliesTo(f, "s")}`, cast: "text[]" };
      if (!(await lookupsOf(ctx.db).has(statuses, slug))) throw new FieldProblem({ code: "slug_not_found", slug });
      return slug;
    },
    apply(f, slug, ctx) {
      ctx.row[f.column] = slug;
    },
  }),
  checksOwnValue: true,
  async onCreate(f, ctx) {
    if (f.default !== undefined && ctx.row[f.column] === undefined) await setDefaultStatus(f, ctx.db, ctx.model, ctx.row);
  },
  displayText(f, column, transform) {
    if (transform !== "display") return `${column}::text`;
    return `(SELECT s.name FROM ${ident(f.statuses.table)} s WHERE s.slug = ${column})`;
  },
  options: {
    type: () => "field",
    async live(f, db) {
      return f.readOnly ? {} : { choices: await statusChoices(f, db) };
    },
  },
};
