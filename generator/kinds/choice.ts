// A choice: a text or integer column, read as `{value, label}`, written as the bare value.
import type { ChoiceField } from "../../runtime/descriptor.js";
import { constraintNames } from "../ir/names.js";
import { sqlLiteral } from "./sql-literal.js";
import { nullable, withLookups, type GeneratorFieldKind } from "./types.js";

export const choice: GeneratorFieldKind<ChoiceField> = {
  schema(f, { model, table }) {
    const numeric = typeof f.choices[0][0] === "number";
    table.columns[f.column] = { type: numeric ? "integer" : "varchar(50)", nullable: f.nullable };
    if (f.default !== undefined) table.columns[f.column].default = sqlLiteral(f.default);
    else if (!f.nullable && !numeric) table.columns[f.column].default = "''";
    table.indexes[constraintNames.index(model.table, f.column)] = { using: "btree", columns: [f.column] };
  },
  readSchema: (f) => nullable({
    type: "object",
    properties: { value: { enum: f.choices.map(([v]) => v) }, label: { enum: f.choices.map(([, l]) => l) } },
    required: ["value", "label"],
    additionalProperties: false,
  }, f.nullable || f.blank),
  // A blank-allowing choice takes "" as well as null (Nautobot's ChoiceField with allow_blank).
  writeSchema: (f) => nullable({ enum: [...f.choices.map(([v]) => v), ...(f.blank ? [""] : [])] }, f.nullable || f.blank),
  filters: (f, add) => withLookups(add, f.name, "choice", ["n"]),
};
