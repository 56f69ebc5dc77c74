// A list of content-type labels (`["dcim.site"]`): links from the row to the API's
// content-type registry through a join table, allowed only for the field's models (those of a
// feature, computed here from the specs, or a list). Read and written as the label strings.
import type { ContentTypeRegistry, ContentTypesField } from "../../runtime/descriptor.js";
import { type ApiSpec, type ContentTypesField as ContentTypesSpec, type ModelSpec } from "../dsl/index.js";
import {
  byCodePoint, CONTENT_TYPE_FIELDS, constraintNames, m2mColumns, m2mTable, tableName, tagAssignmentTable, TAG_ASSIGNMENT_COLUMNS,
} from "../ir/names.js";
import { contentTypeModels } from "./content-type.js";
import { sqlLiteral } from "./sql-literal.js";
import type { GeneratorFieldKind, SpecRules } from "./types.js";

/** The registry the api names (`contentTypes`), as descriptors carry it. */
export function registryOf(api: ApiSpec): ContentTypeRegistry {
  const [app, name] = api.contentTypes!.split(".");
  return { table: tableName(app, name), appLabel: CONTENT_TYPE_FIELDS.appLabel, model: CONTENT_TYPE_FIELDS.model, labeledName: CONTENT_TYPE_FIELDS.appLabeledName };
}

/** A contentTypes field's join table and columns: the row, and the registry row it names. */
export function contentTypesThrough(api: ApiSpec, table: string, field: string): { table: string; source: string; target: string } {
  return { table: m2mTable(table, field), ...m2mColumns(api.contentTypes!.split(".")[1]) };
}

/** The model keys a spec field allows, once each, in label order. */
const allowed = (f: ContentTypesSpec, byRef: Map<string, ModelSpec>, api: ApiSpec): string[] => [...new Set(contentTypeModels(f, byRef, api))].sort(byCodePoint);

export const contentTypesSpec: SpecRules<ContentTypesSpec, ContentTypesField> = {
  check(f, { api, checkRef, err }) {
    if (!api.contentTypes) err("a contentTypes field needs the api's contentTypes registry model");
    if ((f.feature === undefined) === (f.models === undefined)) err("a contentTypes field needs one of feature (the models that have it) or models (a list)");
    if (f.models !== undefined) {
      if (!Array.isArray(f.models) || f.models.length === 0) err("models must list the models the field may name");
      else for (const m of f.models) checkRef(m);
    }
    if (f.default !== undefined && f.default !== "all") err(`default of a contentTypes field is "all" (every model it may name), not ${JSON.stringify(f.default)}`);
  },
  build(f, { default: _default, ...common }, { api, name, table, byRef }) {
    const [tagApp, tagModel] = api.tagModel?.split(".") ?? [];
    const isTagScope = f.feature === "tags" && api.tagModel !== undefined && tableName(tagApp, tagModel) === table;
    return {
      ...common,
      kind: "contentTypes",
      models: allowed(f, byRef, api),
      through: contentTypesThrough(api, table, name),
      registry: registryOf(api),
      ...(f.default === "all" ? { defaultAll: true } : {}),
      ...(isTagScope ? { assignments: { table: tagAssignmentTable(table), type: TAG_ASSIGNMENT_COLUMNS.type, target: TAG_ASSIGNMENT_COLUMNS.target } } : {}),
    };
  },
};

const labels = (f: ContentTypesField) => ({ type: "array", items: { type: "string", enum: f.models } });

export const contentTypes: GeneratorFieldKind<ContentTypesField> = {
  schema(f, { model, extraTables, keyType }) {
    const t = f.through;
    const r = f.registry;
    extraTables[t.table] = {
      columns: {
        [t.source]: { type: keyType(model.key), nullable: false, references: { table: model.table, onDelete: "CASCADE" } },
        [t.target]: { type: "integer", nullable: false, references: { table: r.table, onDelete: "CASCADE" } },
      },
      uniques: {},
      indexes: { [constraintNames.index(t.table, t.target)]: { using: "btree", columns: [t.target] } },
      primaryKey: [t.source, t.target],
      // Rows that exist when the field arrives get what a create without it gets.
      ...(f.defaultAll ? {
        seed: `INSERT INTO "${t.table}" ("${t.source}", "${t.target}") SELECT o."id", r."id" FROM "${model.table}" o CROSS JOIN "${r.table}" r ` +
          `WHERE r."${r.appLabel}" || '.' || r."${r.model}" IN (${f.models.map(sqlLiteral).join(", ")});`,
      } : {}),
    };
  },
  readSchema: (f) => labels(f),
  writeSchema: (f) => labels(f),
  filters(f, add) {
    add(f.name, { kind: "contentTypes", field: f.name, lookup: "exact" });
    add(`${f.name}__n`, { kind: "contentTypes", field: f.name, lookup: "n" });
  },
};
