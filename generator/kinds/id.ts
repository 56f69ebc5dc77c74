// The primary key: a random UUID, a database-assigned integer (serial-id APIs, and serial
// models in others), or an integer the generator gives (the content-type registry's rows,
// written by migrations).
import type { IdField } from "../../runtime/descriptor.js";
import { withLookups, type GeneratorFieldKind } from "./types.js";

export const id: GeneratorFieldKind<IdField> = {
  schema(f, { model, table, keyType }) {
    table.columns.id = f.integer && !f.serial ? { type: "integer", nullable: false, primaryKey: true }
      : keyType(model.key) === "uuid" ? { type: "uuid", nullable: false, default: "gen_random_uuid()", primaryKey: true }
      : { type: "serial", nullable: false, primaryKey: true };
  },
  readSchema: (f, { model, idOf }) => ({ ...idOf(model.key), readOnly: true }),
  // Integer ids filter as numbers do, as Django's AutoField filters.
  filters: (f, add) => (f.integer ? withLookups(add, f.name, "number", ["n", "lt", "lte", "gt", "gte"]) : withLookups(add, f.name, "uuid", ["n"])),
};
