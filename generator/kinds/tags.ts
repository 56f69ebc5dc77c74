// The tags feature: one assignment table shared by every tagged model, keyed by the
// object's model key and id; read and written like a many-to-many; filtered by tag slug.
import type { TagsField } from "../../runtime/descriptor.js";
import { constraintNames } from "../ir/names.js";
import { RELATED_WRITE, type GeneratorFieldKind } from "./types.js";

export const tags: GeneratorFieldKind<TagsField> = {
  schema(f, { extraTables, tableOf }) {
    const t = f.through;
    extraTables[t.table] ??= {
      columns: {
        [t.target]: { type: "uuid", nullable: false, references: { table: tableOf(f.target), onDelete: "CASCADE" } },
        [t.type]: { type: "varchar(100)", nullable: false },
        [t.source]: { type: "uuid", nullable: false },
      },
      uniques: {},
      indexes: { [constraintNames.taggedObject(t.table)]: { using: "btree", columns: [t.type, t.source] } },
      primaryKey: [t.target, t.type, t.source],
    };
  },
  readSchema: (f, { nestedRef }) => ({ type: "array", items: nestedRef(f.target) }),
  writeSchema: () => ({ type: "array", items: RELATED_WRITE }),
  filters(f, add) {
    add("tag", { kind: "tag", field: f.name, lookup: "exact" });
    add("tag__n", { kind: "tag", field: f.name, lookup: "n" });
  },
};
