// A content-type label: stored, read and written as the plain `app.model` string, refused
// in DRF's ContentTypeField words when it names no model the field allows; shown in a display
// string as the registry names the model, as Django's ContentType is (`DCIM | device type`).
import type { ContentTypeField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import { col, ident } from "../query/sql.js";
import { labelOf } from "./content-types.js";
import { FieldProblem, type RuntimeFieldKind } from "./types.js";

export const contentType: RuntimeFieldKind<ContentTypeField> = {
  read: (f, { alias }) => col(alias, f.column),
  json: (f, { alias }) => scalarJson(col(alias, f.column)),
  async write(f, value, { row }) {
    if (value === null) {
      if (!f.nullable) throw new FieldProblem({ code: "null" });
      row[f.column] = null;
      return;
    }
    if (typeof value !== "string" || !/^[^.]+\.[^.]+$/.test(value)) {
      throw new FieldProblem({ code: "content_type_format" });
    }
    if (!f.models.includes(value)) throw new FieldProblem({ code: "invalid_content_type", value });
    row[f.column] = value;
  },
  checksOwnValue: true,
  displayText(f, column, transform) {
    if (transform !== "display" || !f.registry) return `${column}::text`;
    const r = f.registry;
    return `(SELECT ${col("r", r.labeledName)} FROM ${ident(r.table)} r WHERE ${labelOf(r, "r")} = ${column})`;
  },
  options: { type: () => "field" },
};
