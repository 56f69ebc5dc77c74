// A choice: the bare value stored and written, `{value, label}` read (or the bare value,
// everywhere or in nested forms only).
import type { ChoiceField } from "../descriptor.js";
import { constantJson, scalarJson } from "../query/json-text.js";
import { col, literal } from "../query/sql.js";
import { writeByValue, type RuntimeFieldKind } from "./types.js";

export const choice: RuntimeFieldKind<ChoiceField> = {
  read: (f, { alias }) => col(alias, f.column),
  render(f, ctx) {
    if (f.plain || (f.plainWhenNested && ctx.shape !== "full")) return (v) => v ?? null;
    const labels = new Map(f.choices.map(([v, l]) => [String(v), l]));
    return (v) => (v === null || v === "" || v === undefined ? null : { value: v, label: labels.get(String(v)) ?? String(v) });
  },
  json(f, ctx) {
    const c = col(ctx.alias, f.column);
    if (f.plain || (f.plainWhenNested && ctx.shape !== "full")) return scalarJson(c);
    const label = `CASE ${c}::text ${f.choices.map(([v, l]) => `WHEN ${literal(String(v))} THEN ${constantJson(l)}`).join(" ")} ELSE to_json(${c}::text)::text END`;
    return `CASE WHEN ${c} IS NULL OR ${c}::text = '' THEN 'null' ELSE '{"value":' || to_json(${c})::text || ',"label":' || ${label} || '}' END`;
  },
  ...writeByValue<ChoiceField>({
    resolve: (f, value) => (value === null ? (f.nullable ? null : "") : value),
    apply(f, value, { row }) {
      row[f.column] = value;
    },
  }),
  // A model's __str__ shows the stored value, or with `display` its get_FOO_display() (the label).
  displayText(f, column, transform) {
    if (transform !== "display") return `${column}::text`;
    return `CASE ${column}::text ${f.choices.map(([v, l]) => `WHEN ${literal(String(v))} THEN ${literal(l)}`).join(" ")} ELSE ${column}::text END`;
  },
  options: {
    type: () => "field",
    describe(f, info) {
      if (!f.readOnly) info.choices = f.choices.map(([value, display]) => ({ value, display }));
    },
  },
};
