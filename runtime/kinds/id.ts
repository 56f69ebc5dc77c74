// The primary key.
import type { IdField } from "../descriptor.js";
import { col } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const id: RuntimeFieldKind<IdField> = {
  read: (_f, { alias }) => col(alias, "id"),
  // A key is never NULL, and a UUID's text needs no escaping.
  json: (f, { alias }) => (f.integer ? `${col(alias, "id")}::text` : `'"' || ${col(alias, "id")} || '"'`),
  // DRF describes an integer key (Django's AutoField) as an integer.
  options: { type: (f) => (f.integer ? "integer" : "string") },
};
