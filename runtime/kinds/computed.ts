// A computed value: the model's hook module gives the SQL expression, evaluated in the same
// statement as the rest of the read (never a query per row).
import type { ComputedField } from "../descriptor.js";
import type { RuntimeFieldKind } from "./types.js";

export const computed: RuntimeFieldKind<ComputedField> = {
  read(f, { model, alias }) {
    const value = model.hooks?.readValues?.[f.name];
    if (!value) throw new Error(`${model.key}.${f.name}: the hook module gives no readValues.${f.name}`);
    return value({ alias, model });
  },
  options: { type: () => "field" },
};
