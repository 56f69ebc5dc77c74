// A generic reference: a row of one of several models, named by a contentType field and a
// uuid field of the same model. Nothing stored of its own; read only, as the row's nested form.
import type { GenericField } from "../../runtime/descriptor.js";
import type { ContentTypeField as ContentTypeSpec, GenericField as GenericSpec } from "../dsl/index.js";
import { contentTypeModels } from "./content-type.js";
import { nullable, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const genericSpec: SpecRules<GenericSpec, GenericField> = {
  check(f, { fields, err }) {
    if (fields[f.type]?.kind !== "contentType") err(`generic "type" must name a contentType field, not "${f.type}"`);
    const id = fields[f.id];
    if (id?.kind !== "scalar" || id.type !== "uuid") err(`generic "id" must name a uuid field, not "${f.id}"`);
    if (f.onDelete !== undefined && f.onDelete !== "cascade") err(`generic "onDelete" may only be "cascade"`);
  },
  build(f, common, { api, fields, byRef }) {
    const type = fields[f.type] as ContentTypeSpec;
    const id = fields[f.id];
    return {
      ...common,
      kind: "generic",
      readOnly: true,
      typeColumn: type.column ?? f.type,
      idColumn: id.column ?? f.id,
      targets: contentTypeModels(type, byRef, api),
      ...(f.onDelete ? { onDelete: f.onDelete } : {}),
      ...(f.relatedName ? { relatedName: f.relatedName } : {}),
    };
  },
};

export const generic: GeneratorFieldKind<GenericField> = {
  // Several targets share one nested shape (`id`, `url`, `display`, `device`, `name`), so any may match.
  readSchema: (f, { nestedRef }) => ({ ...nullable({ anyOf: f.targets.map(nestedRef) }, true), readOnly: true }),
};
