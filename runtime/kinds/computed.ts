// A computed value: the model's hook module gives the SQL expression, evaluated in the same
// statement as the rest of the read (never a query per row).
import type { ComputedField, StatementRows } from "../descriptor.js";
import { jsonbJson, jsonbObjectJson } from "../query/json-text.js";
import type { ReadContext, RuntimeFieldKind } from "./types.js";

/** The hook's expression, and whether it asked for a value of the statement's rows as a whole. */
function valueOf(f: ComputedField, { model, alias, rows }: ReadContext): { expr: string; whole: boolean } {
  const value = model.hooks?.readValues?.[f.name];
  if (!value) throw new Error(`${model.key}.${f.name}: the hook module gives no readValues.${f.name}`);
  let whole = false;
  const watched: StatementRows | undefined = rows && { once: rows.once, whole: (aggregate) => ((whole = true), rows.whole(aggregate)) };
  return { expr: value({ alias, model, rows: watched }), whole };
}

/** Whether every value of the field is an object or an array: its JSON text needs no test of its type. */
const structured = (f: ComputedField) => f.schema.type === "object" || f.schema.type === "array";

export const computed: RuntimeFieldKind<ComputedField> = {
  read: (f, ctx) => valueOf(f, ctx).expr,
  // The value as JSON. An object's or an array's text names the value once; another's tests
  // its type first, so it is worked out once (OFFSET 0 keeps the planner from copying it into
  // each use), except where it holds a value of the statement's rows as a whole, which only
  // the statement's own select list can give.
  json: (f, ctx) => {
    const { expr, whole } = valueOf(f, ctx);
    if (structured(f)) return jsonbObjectJson(`to_jsonb(${expr})`);
    return whole ? jsonbJson(`to_jsonb(${expr})`) : `(SELECT ${jsonbJson("x.v")} FROM (SELECT to_jsonb(${expr}) AS v OFFSET 0) x)`;
  },
  options: { type: () => "field" },
};
