// A many-to-many link: a join table of (source, target) pairs; read as a list of nested
// objects, written as a list of references that replaces the set.
import type { M2mField } from "../../runtime/descriptor.js";
import type { M2mField as M2mSpec } from "../dsl/index.js";
import { constraintNames, m2mColumns, m2mTable, refKey } from "../ir/names.js";
import { linkFilters } from "./fk.js";
import { relatedWrite, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const m2mSpec: SpecRules<M2mSpec, M2mField> = {
  check: (f, { checkRef, resolve, err }) => {
    if (!checkRef(f.target)) return;
    const target = resolve(f.target)!.spec;
    if (f.bySlug && !("slug" in target.fields)) err(`bySlug: ${f.target} has no slug`);
    if (f.keyWhenNested !== undefined) {
      const key = target.fields[f.keyWhenNested];
      if (!(key?.kind === "scalar" && (key.type === "string" || key.type === "text"))) err(`keyWhenNested: "${f.keyWhenNested}" is no string field of ${f.target}`);
      if (f.bySlug) err("keyWhenNested and bySlug exclude each other");
    }
  },
  build: (f, common, { name, table, byRef }) => ({
    ...common,
    kind: "m2m",
    target: refKey(f.target),
    through: { table: m2mTable(table, name), ...m2mColumns(byRef.get(f.target)!.name) },
    ...(f.bySlug ? { bySlug: true } : {}),
    ...(f.keyWhenNested ? { keyWhenNested: f.keyWhenNested } : {}),
    ...(f.relatedName ? { relatedName: f.relatedName } : {}),
  }),
};

export const m2m: GeneratorFieldKind<M2mField> = {
  schema(f, { model, extraTables, tableOf, keyType }) {
    const t = f.through;
    extraTables[t.table] = {
      columns: {
        [t.source]: { type: keyType(model.key), nullable: false, references: { table: model.table, onDelete: "CASCADE" } },
        [t.target]: { type: keyType(f.target), nullable: false, references: { table: tableOf(f.target), onDelete: "CASCADE" } },
      },
      uniques: {},
      indexes: { [constraintNames.index(t.table, t.target)]: { using: "btree", columns: [t.target] } },
      primaryKey: [t.source, t.target],
    };
  },
  readSchema: (f, { nestedRef, nested }) => ({ type: "array", items: f.bySlug || (nested && f.keyWhenNested) ? { type: "string" } : nestedRef(f.target) }),
  writeSchema: (f, { idOf }) => ({ type: "array", items: f.bySlug ? { type: "string" } : relatedWrite(idOf(f.target)) }),
  // Rows linked to any of the named rows (id or natural key), as Django's filters over a many-to-many field.
  filters: (f, add) => linkFilters(f.name, add),
};
