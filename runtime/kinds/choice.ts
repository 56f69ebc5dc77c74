// A choice: the bare value stored and written, `{value, label}` read (or the bare value,
// everywhere or in nested forms only).
import type { ChoiceField } from "../descriptor.js";
import { col, literal } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const choice: RuntimeFieldKind<ChoiceField> = {
  read: (f, { alias }) => col(alias, f.column),
  render(f, ctx) {
    if (f.plain || (f.plainWhenNested && ctx.shape !== "full")) return (v) => v ?? null;
    const labels = new Map(f.choices.map(([v, l]) => [String(v), l]));
    return (v) => (v === null || v === "" || v === undefined ? null : { value: v, label: labels.get(String(v)) ?? String(v) });
  },
  async write(f, value, { row }) {
    row[f.column] = value === null ? (f.nullable ? null : "") : value;
  },
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
