// The custom-fields feature: a JSON object column. No custom field is defined yet, so the
// only value accepted is an empty object.
import type { CustomFieldsField } from "../descriptor.js";
import { col } from "../query/sql.js";
import { FieldProblem, isPlainObject, type RuntimeFieldKind } from "./types.js";

export const customFields: RuntimeFieldKind<CustomFieldsField> = {
  read: (f, { alias }) => col(alias, f.column),
  async write(f, value, { row }) {
    if (!isPlainObject(value)) throw new FieldProblem("Expected a dictionary of custom field values.");
    const unknown = Object.keys(value);
    if (unknown.length) throw new FieldProblem(`Unknown custom field: ${unknown.join(", ")}`);
    row[f.column] = {};
  },
  options: { type: () => "field" },
};
