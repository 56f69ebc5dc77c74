// A computed value: nothing stored; the hook module gives its SQL; the spec gives its schema.
import type { ComputedField } from "../../runtime/descriptor.js";
import type { ComputedField as ComputedSpec } from "../dsl/index.js";
import { nullable, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const computedSpec: SpecRules<ComputedSpec, ComputedField> = {
  check(f, { err }) {
    if (typeof f.schema !== "object" || f.schema === null || Array.isArray(f.schema)) err("a computed field needs schema: the JSON schema of its value");
  },
  build: (f, common) => ({ ...common, kind: "computed", readOnly: true, schema: structuredClone(f.schema), ...(f.excludable ? { excludable: true } : {}) }),
};

export const computed: GeneratorFieldKind<ComputedField> = {
  readSchema: (f) => ({ ...nullable(f.schema, f.nullable), readOnly: true }),
};
