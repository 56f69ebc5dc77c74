// A foreign key: a `<name>_id` column with its constraint and index; read as the target's
// nested form, written as an id or attribute dictionary; filtered by id or natural key.
import type { FkField, TreeParentField } from "../../runtime/descriptor.js";
import type { FkField as FkSpec } from "../dsl/index.js";
import { constraintNames, fkColumn, refKey } from "../ir/names.js";
import { nullable, relatedWrite, withLookups, type AddFilter, type GeneratorFieldKind, type SchemaContext, type SpecRules } from "./types.js";

const ON_DELETE = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL" } as const;

/** The column, constraint and index of a link to another row; shared with tree parents. */
export function linkColumn(f: FkField | TreeParentField, { model, table, tableOf, keyType }: SchemaContext, nullable: boolean, onDelete: FkField["onDelete"]): void {
  table.columns[f.column] = { type: keyType(f.target), nullable, references: { table: tableOf(f.target), onDelete: ON_DELETE[onDelete] } };
  // A unique link is a one-to-one link (Django's OneToOneField): its unique constraint is its index.
  if (f.unique) table.uniques[constraintNames.unique(model.table, f.column)] = [f.column];
  else table.indexes[constraintNames.index(model.table, f.column)] = { using: "btree", columns: [f.column] };
}

/** `name`, `name__n` (id or natural key) and `name_id`, `name_id__n` (id only). */
export function linkFilters(name: string, add: AddFilter): void {
  withLookups(add, name, "fk", ["n"]);
  add(`${name}_id`, { kind: "fk", field: name, lookup: "exact", idOnly: true });
  add(`${name}_id__n`, { kind: "fk", field: name, lookup: "n", idOnly: true });
}

export const fkSpec: SpecRules<FkSpec, FkField> = {
  check(f, { checkRef, resolve, users, err }) {
    if (checkRef(f.target)) {
      const target = resolve(f.target)!.spec;
      for (const n of f.shape ?? []) if (!(n in target.fields) && !["id", "url", "display"].includes(n)) err(`shape names "${n}", no field of ${f.target}`);
    }
    // The requester is a user: the column holds the authenticated user's id.
    if (f.fromRequestUser && f.target !== users) err(`fromRequestUser needs a foreign key to the auth.users model${users ? ` ${users}` : " (none is set)"}`);
  },
  build: (f, common, { name }) => ({
    ...common,
    kind: "fk",
    column: f.column ?? fkColumn(name),
    target: refKey(f.target),
    onDelete: f.onDelete ?? "protect",
    ...(f.fromRequestUser ? { fromRequestUser: true, readOnly: true } : {}),
    ...(f.idWhenNested ? { idWhenNested: true } : {}),
    ...(f.asId ? { asId: true } : {}),
    ...(f.relatedName ? { relatedName: f.relatedName } : {}),
    ...(f.oneToOne ? { oneToOne: true } : {}),
    ...(f.shape ? { shape: ["id", "url", "display", ...f.shape.filter((n) => !["id", "url", "display"].includes(n))] } : {}),
  }),
};

export const fk: GeneratorFieldKind<FkField> = {
  schema: (f, ctx) => linkColumn(f, ctx, f.nullable || !f.required, f.onDelete),
  readSchema: (f, { nestedRef, shapeOf, nested, idOf }) =>
    nullable(f.asId || (nested && f.idWhenNested) ? idOf(f.target) : f.shape ? shapeOf(f.target, f.shape) : nestedRef(f.target), f.nullable || !f.required),
  // Only a field declared nullable takes null: an optional one may merely be left out
  // (Tenant.group: "This field may not be null.", as DRF's allow_null=False).
  writeSchema: (f, { idOf }) => nullable(relatedWrite(idOf(f.target)), f.nullable),
  filters: (f, add) => linkFilters(f.name, add),
};
