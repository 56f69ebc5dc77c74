// A status: a slug column with a foreign key to the api's status model's slug (following a
// renamed slug, refusing to delete a status in use), read as `{value, label}`, written as a
// slug; the model's default statuses linked to it by the migration that adds the field.
import type { StatusField } from "../../runtime/descriptor.js";
import type { StatusField as StatusSpec } from "../dsl/index.js";
import { constraintNames, modelKey, tableName } from "../ir/names.js";
import { contentTypesThrough, registryOf } from "./content-types.js";
import { sqlLiteral } from "./sql-literal.js";
import { withLookups, type GeneratorFieldKind, type SpecRules } from "./types.js";

/** The status model's contentTypes field of the statuses scope, by name. */
const scopeField = (fields: Record<string, { kind: string; feature?: string }>) =>
  Object.entries(fields).find(([, f]) => f.kind === "contentTypes" && f.feature === "statuses")?.[0];

export const statusSpec: SpecRules<StatusSpec, StatusField> = {
  check(f, { api, resolve, err }) {
    const target = api.statusModel ? resolve(api.statusModel)?.spec : undefined;
    if (!target) {
      err(api.statusModel ? `the api's statusModel ${api.statusModel} is no model` : "a status field needs the api's statusModel");
      return;
    }
    for (const n of ["name", "slug"]) if (!(n in target.fields)) err(`the status model ${api.statusModel} has no ${n} field`);
    if (!scopeField(target.fields)) err(`the status model ${api.statusModel} needs a contentTypes field with feature "statuses"`);
    // A create that cannot give the status (through a version before its `since`) gets this one.
    if (f.default !== undefined && !(f.defaults?.values ?? []).some(([slug]) => slug === f.default)) {
      err(`default "${String(f.default)}" is not one of the field's default statuses`);
    }
    const rows = target.rows?.values ?? [];
    for (const [slug, name] of f.defaults?.values ?? []) {
      const row = rows.find((r) => r.slug === slug);
      if (!row) err(`default status "${slug}" is not one of the rows of ${api.statusModel}`);
      else if (row.name !== name) err(`default status "${slug}" is named "${name}" here and "${String(row.name)}" in ${api.statusModel}'s rows`);
    }
  },
  build(f, common, { api, model, name, byRef }) {
    const [app, statusName] = api.statusModel!.split(".");
    const table = tableName(app, statusName);
    return {
      ...common,
      kind: "status",
      column: f.column ?? name,
      statuses: {
        model: modelKey(app, statusName),
        table,
        through: contentTypesThrough(api, table, scopeField(byRef.get(api.statusModel!)!.fields)!),
        registry: registryOf(api),
      },
      contentType: model,
      defaults: (f.defaults?.values ?? []).map(([v]) => String(v)),
    };
  },
};

const q = (name: string) => `"${name}"`;

export const status: GeneratorFieldKind<StatusField> = {
  schema(f, { model, table, seedRow }) {
    const s = f.statuses;
    table.columns[f.column] = {
      type: "varchar(50)",
      nullable: f.nullable || !f.required,
      references: { table: s.table, column: "slug", onDelete: "RESTRICT", onUpdate: "CASCADE" },
    };
    table.indexes[constraintNames.index(model.table, f.column)] = { using: "btree", columns: [f.column] };
    const [app, name] = f.contentType.split(".");
    const r = s.registry;
    // By slug and label, so a status a user has since renamed or removed is simply left alone.
    for (const slug of f.defaults) {
      seedRow(s.through.table, `${slug} ${f.contentType}`,
        `INSERT INTO ${q(s.through.table)} (${q(s.through.source)}, ${q(s.through.target)}) SELECT s."id", r."id" FROM ${q(s.table)} s, ${q(r.table)} r ` +
        `WHERE s."slug" = ${sqlLiteral(slug)} AND r.${q(r.appLabel)} = ${sqlLiteral(app)} AND r.${q(r.model)} = ${sqlLiteral(name)} ON CONFLICT DO NOTHING;`);
    }
  },
  readSchema: () => ({
    type: "object",
    properties: { value: { type: "string" }, label: { type: "string" } },
    required: ["value", "label"],
    additionalProperties: false,
  }),
  writeSchema: () => ({ type: "string", description: "The slug of one of the statuses of this model (case-insensitive)." }),
  filters: (f, add) => withLookups(add, f.name, "status", ["n"]),
};
