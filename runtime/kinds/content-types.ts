// A list of content-type labels kept as links to the API's content-type registry: read as
// the labels in order, written as labels the field allows (refused in the words of
// Nautobot's ContentTypeField), filled with every allowed label on a create that leaves it
// out when the field says so, and, as a tag model's scope, never dropping a label in use.
import type { ContentTypeRegistry, ContentTypesField } from "../descriptor.js";
import { ValidationError } from "../errors.js";
import { arrayJson } from "../query/json-text.js";
import { col, ident } from "../query/sql.js";
import { FieldProblem, type Db, type RuntimeFieldKind } from "./types.js";

type Links = { table: string; source: string; target: string };

/** `app_label.model` of the registry row aliased `alias`. */
export function labelOf(registry: ContentTypeRegistry, alias: string): string {
  return `${col(alias, registry.appLabel)} || '.' || ${col(alias, registry.model)}`;
}

/** The join rows `j` of a row (its id the SQL `source`) with the registry rows `r` they name. */
export function linkedTypes(links: Links, registry: ContentTypeRegistry, source: string): string {
  return `FROM ${ident(links.table)} j JOIN ${ident(registry.table)} r ON r.id = ${col("j", links.target)} WHERE ${col("j", links.source)} = ${source}`;
}

/** Makes `labels` the whole list of row `id`. */
async function replace(db: Db, f: ContentTypesField, id: string | number, labels: string[]): Promise<void> {
  const t = f.through;
  await db(t.table).where(t.source, id).del();
  if (!labels.length) return;
  await db.raw(
    `INSERT INTO ${ident(t.table)} (${ident(t.source)}, ${ident(t.target)}) SELECT ?, r.id FROM ${ident(f.registry.table)} r WHERE ${labelOf(f.registry, "r")} = ANY(?::text[])`,
    [id, labels],
  );
}

/**
 * Labels the write drops while rows of that model still carry this one (Nautobot's
 * validate_content_types_removal), as the field's errors: checked once every field is valid.
 */
async function keepAssigned(db: Db, table: string, f: ContentTypesField, id: string | number, labels: string[]): Promise<void> {
  const a = f.assignments!;
  // Writes applying the tag hold its row (FOR KEY SHARE) from their scope check to their
  // commit: waiting for them here means seeing what they applied; they in turn wait for this
  // write and then check the new scope (tags kind).
  await db(table).where("id", id).forUpdate().first("id");
  const label = labelOf(f.registry, "r");
  const rows: Array<{ label: string }> = (await db.raw(
    `SELECT ${label} AS label ${linkedTypes(f.through, f.registry, "?")} AND NOT (${label} = ANY(?::text[])) ` +
    `AND EXISTS (SELECT 1 FROM ${ident(a.table)} a WHERE ${col("a", a.target)} = ? AND ${col("a", a.type)} = ${label}) ` +
    `ORDER BY ${col("r", f.registry.appLabel)} COLLATE "C", ${col("r", f.registry.model)} COLLATE "C"`,
    [id, labels, id],
  )).rows;
  if (rows.length) throw new ValidationError({ [f.name]: rows.map((r) => ({ code: "content_type_in_use" as const, label: r.label })) });
}

export const contentTypes: RuntimeFieldKind<ContentTypesField> = {
  read(f, { alias }) {
    const r = f.registry;
    return `(SELECT coalesce(json_agg(${labelOf(f.registry, "r")} ORDER BY ${col("r", r.appLabel)} COLLATE "C", ${col("r", r.model)} COLLATE "C"), '[]'::json) ` +
      `${linkedTypes(f.through, f.registry, col(alias, "id"))})`;
  },
  json(f, { alias }) {
    const r = f.registry;
    return arrayJson(`to_json(${labelOf(r, "r")})::text`, linkedTypes(f.through, r, col(alias, "id")),
      `${col("r", r.appLabel)} COLLATE "C", ${col("r", r.model)} COLLATE "C"`);
  },
  async write(f, value, ctx, afterSave) {
    if (value === null) throw new FieldProblem({ code: "null" });
    if (!Array.isArray(value)) throw new FieldProblem({ code: "not_a_list", given: value });
    for (const item of value) {
      if (typeof item !== "string" || item.split(".").length !== 2) {
        throw new FieldProblem({ code: "content_type_format" });
      }
      if (!f.models.includes(item)) throw new FieldProblem({ code: "invalid_content_type", value: item });
    }
    const labels = [...new Set(value as string[])];
    ctx.links[f.name] = labels;
    const updating = ctx.id !== null;
    afterSave.push(async (id) => {
      if (updating && f.assignments) await keepAssigned(ctx.db, ctx.model.table, f, id, labels);
      await replace(ctx.db, f, id, labels);
    });
  },
  checksOwnValue: true,
  onCreate(f, ctx) {
    if (f.defaultAll && !ctx.written.has(f.name)) ctx.afterSave.push((id) => replace(ctx.db, f, id, f.models));
  },
  options: { type: () => "field" },
};
