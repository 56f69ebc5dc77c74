// A computed value: the model's hook module gives the SQL expression, evaluated in the same
// statement as the rest of the read (never a query per row).
import type { ComputedField } from "../descriptor.js";
import { jsonbJson } from "../query/json-text.js";
import type { RuntimeFieldKind } from "./types.js";

export const computed: RuntimeFieldKind<ComputedField> = {
  read(f, { model, alias }) {
    const value = model.hooks?.readValues?.[f.name];
    if (!value) throw new Error(`${model.key}.${f.name}: the hook module gives no readValues.${f.name}`);
    return value({ alias, model });
  },
  // The value as JSON: a hook's expression gives SQL text, numbers, booleans or JSON. Worked
  // out once (OFFSET 0 keeps the planner from copying it into each use of its value).
  json: (f, ctx) => `(SELECT ${jsonbJson("x.v")} FROM (SELECT to_jsonb(${computed.read!(f, ctx)}) AS v OFFSET 0) x)`,
  options: { type: () => "field" },
};
