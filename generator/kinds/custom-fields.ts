// The custom-fields feature: one JSON object column; its keys are data, not schema. A GIN
// index (jsonb_path_ops) serves the `cf_` filters, which match with containment (`@>`).
import type { CustomFieldsField } from "../../runtime/descriptor.js";
import { constraintNames } from "../ir/names.js";
import type { GeneratorFieldKind } from "./types.js";

const OBJECT = { type: "object", additionalProperties: {} };

export const customFields: GeneratorFieldKind<CustomFieldsField> = {
  schema(f, { table, model }) {
    table.columns[f.column] = { type: "jsonb", nullable: false, default: "'{}'::jsonb" };
    table.indexes[constraintNames.index(model.table, f.column)] = { using: "gin", columns: [`${f.column} jsonb_path_ops`] };
  },
  readSchema: () => OBJECT,
  writeSchema: () => OBJECT,
};
