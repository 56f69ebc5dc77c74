// A content-type label: stored, read and written as the plain `app.model` string, refused
// in DRF's ContentTypeField words when it names no model the field allows.
import type { ContentTypeField } from "../descriptor.js";
import { col } from "../query/sql.js";
import { FieldProblem, type RuntimeFieldKind } from "./types.js";

export const contentType: RuntimeFieldKind<ContentTypeField> = {
  read: (f, { alias }) => col(alias, f.column),
  async write(f, value, { row }) {
    if (value === null) {
      if (!f.nullable) throw new FieldProblem("This field may not be null.");
      row[f.column] = null;
      return;
    }
    if (typeof value !== "string" || !/^[^.]+\.[^.]+$/.test(value)) {
      throw new FieldProblem("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
    }
    if (!f.models.includes(value)) throw new FieldProblem(`Invalid content type: ${value}`);
    row[f.column] = value;
  },
  checksOwnValue: true,
  options: { type: () => "field" },
};
