// A choice: a text or integer column, read as `{value, label}`, written as the bare value.
import type { ChoiceField } from "../../runtime/descriptor.js";
import { constraintNames } from "../ir/names.js";
import { sqlLiteral } from "./sql-literal.js";
import type { ChoiceField as ChoiceSpec } from "../dsl/index.js";
import { nullable, withLookups, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const choiceSpec: SpecRules<ChoiceSpec, ChoiceField> = {
  check(f, { err }) {
    if (!f.choices || f.choices.kind !== "choices" || f.choices.values.length === 0) err("choice field needs a non-empty choices(...) set");
    else if (f.default !== undefined && !f.choices.values.some(([v]) => v === f.default)) err(`default "${String(f.default)}" is not one of the choices`);
    if (f.plain && f.plainWhenNested) err("plainWhenNested says nothing more when plain is set");
  },
  build: (f, common, { name }) => ({
    ...common,
    kind: "choice",
    column: f.column ?? name,
    blank: f.blank ?? false,
    choices: f.choices.values.map(([v, l]) => [v, l] as [string | number, string]),
    ...(f.plain ? { plain: true } : {}),
    ...(f.plainWhenNested ? { plainWhenNested: true } : {}),
  }),
};

export const choice: GeneratorFieldKind<ChoiceField> = {
  schema(f, { model, table }) {
    const numeric = typeof f.choices[0][0] === "number";
    table.columns[f.column] = { type: numeric ? "integer" : "varchar(50)", nullable: f.nullable };
    if (f.default !== undefined) table.columns[f.column].default = sqlLiteral(f.default);
    else if (!f.nullable && !numeric) table.columns[f.column].default = "''";
    table.indexes[constraintNames.index(model.table, f.column)] = { using: "btree", columns: [f.column] };
  },
  readSchema: (f, { nested }) => (f.plain || (f.plainWhenNested && nested) ? nullable({ enum: [...f.choices.map(([v]) => v), ...(f.blank ? [""] : [])] }, f.nullable) : nullable({
    type: "object",
    properties: { value: { enum: f.choices.map(([v]) => v) }, label: { enum: f.choices.map(([, l]) => l) } },
    required: ["value", "label"],
    additionalProperties: false,
  }, f.nullable || f.blank)),
  // A blank-allowing choice takes "" as well as null (Nautobot's ChoiceField with allow_blank).
  writeSchema: (f) => nullable({ enum: [...f.choices.map(([v]) => v), ...(f.blank ? [""] : [])] }, f.nullable || f.blank),
  filters: (f, add) => withLookups(add, f.name, "choice", ["n"]),
};
