// The primary key: a random UUID, or a database-assigned integer for serial-id APIs.
import type { IdField } from "../../runtime/descriptor.js";
import { withLookups, type GeneratorFieldKind } from "./types.js";

export const id: GeneratorFieldKind<IdField> = {
  schema(_f, { table, keyType }) {
    table.columns.id = keyType === "uuid"
      ? { type: "uuid", nullable: false, default: "gen_random_uuid()", primaryKey: true }
      : { type: "serial", nullable: false, primaryKey: true };
  },
  readSchema: () => ({ type: "string", format: "uuid", readOnly: true }),
  filters: (f, add) => withLookups(add, f.name, "uuid", ["n"]),
};
