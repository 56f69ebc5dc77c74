// A choice: the bare value stored and written, `{value, label}` read.
import type { ChoiceField } from "../descriptor.js";
import { col } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const choice: RuntimeFieldKind<ChoiceField> = {
  read: (f, { alias }) => col(alias, f.column),
  render(f) {
    if (f.plain) return (v) => v ?? null;
    const labels = new Map(f.choices.map(([v, l]) => [String(v), l]));
    return (v) => (v === null || v === "" || v === undefined ? null : { value: v, label: labels.get(String(v)) ?? String(v) });
  },
  async write(f, value, { row }) {
    row[f.column] = value === null ? (f.nullable ? null : "") : value;
  },
  options: {
    type: () => "field",
    describe(f, info) {
      if (!f.readOnly) info.choices = f.choices.map(([value, display]) => ({ value, display }));
    },
  },
};
