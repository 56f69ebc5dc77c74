// Computed fields: read with the object from the definitions' table, rendered by the runtime;
// nothing stored on the model, never written.
import type { ComputedFieldsField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

export const computedFields: GeneratorFieldKind<ComputedFieldsField> = {
  readSchema: () => ({ type: "object", additionalProperties: { type: "string" }, readOnly: true }),
};
