// A computed value: nothing stored; the hook module gives its SQL; the spec gives its schema.
import type { ComputedField } from "../../runtime/descriptor.js";
import { nullable, type GeneratorFieldKind } from "./types.js";

export const computed: GeneratorFieldKind<ComputedField> = {
  readSchema: (f) => ({ ...nullable(f.schema, f.nullable), readOnly: true }),
};
