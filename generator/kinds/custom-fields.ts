// The custom-fields feature: one JSON object column; its keys are data, not schema.
import type { CustomFieldsField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

const OBJECT = { type: "object", additionalProperties: {} };

export const customFields: GeneratorFieldKind<CustomFieldsField> = {
  schema(f, { table }) {
    table.columns[f.column] = { type: "jsonb", nullable: false, default: "'{}'::jsonb" };
  },
  readSchema: () => OBJECT,
  writeSchema: () => OBJECT,
};
