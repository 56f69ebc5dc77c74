// A content-type label (`dcim.interface`): a text column holding the model key of one of the
// field's models (a list, or those of a feature), read and written as that plain string, as
// DRF's ContentTypeField.
import type { ContentTypeField } from "../../runtime/descriptor.js";
import { type ApiSpec, type ContentTypeField as ContentTypeSpec, type ContentTypeScope, type ModelSpec } from "../dsl/index.js";
import { byCodePoint, constraintNames, modelKey, refKey } from "../ir/names.js";
import { registryOf } from "./content-types.js";
import { withLookups, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const contentTypeSpec: SpecRules<ContentTypeSpec, ContentTypeField> = {
  check(f, { checkRef, err }) {
    if (f.feature !== undefined) {
      if (f.models !== undefined) err("a contentType field takes feature or models, not both");
    } else if (!Array.isArray(f.models) || f.models.length === 0) err("a contentType field needs models (the models it may name) or feature");
    else for (const m of f.models) checkRef(m);
  },
  build: (f, common, { api, name, byRef }) => ({
    ...common, kind: "contentType", column: f.column ?? name, models: contentTypeModels(f, byRef, api),
    ...(api.contentTypes ? { registry: registryOf(api) } : {}),
  }),
};

/** Whether a model is in a scope: has the feature, (`statuses`) a status field, or (`all`) is any model. */
export const inScope = (m: ModelSpec, scope: ContentTypeScope): boolean =>
  (scope === "all" ? true : scope === "statuses" ? Object.values(m.fields).some((f) => f.kind === "status") : !!m.features?.includes(scope));

/**
 * The model keys a contentType field may name: its list, or the models in its scope in label
 * order (views and the content-type registry itself, which have no registry row, never).
 */
export function contentTypeModels(f: Pick<ContentTypeSpec, "feature" | "models">, byRef: Map<string, ModelSpec>, api: ApiSpec): string[] {
  if (!f.feature) return f.models!.map(refKey);
  return [...byRef.values()].filter((m) => inScope(m, f.feature!) && !m.view && `${m.app}.${m.name}` !== api.contentTypes)
    .map((m) => modelKey(m.app, m.name)).sort(byCodePoint);
}

/** One of the field's labels, or null too when `orNull`. */
const labels = (f: ContentTypeField, orNull: boolean) =>
  (orNull ? { type: ["string", "null"], enum: [...f.models, null] } : { type: "string", enum: f.models });

export const contentType: GeneratorFieldKind<ContentTypeField> = {
  schema(f, { model, table }) {
    table.columns[f.column] = { type: "varchar(100)", nullable: f.nullable || !f.required };
    table.indexes[constraintNames.index(model.table, f.column)] = { using: "btree", columns: [f.column] };
  },
  readSchema: (f) => labels(f, f.nullable || !f.required),
  writeSchema: (f) => labels(f, f.nullable),
  filters: (f, add) => withLookups(add, f.name, "string", ["n"]),
};
