// What a field kind contributes to the generator: its column facts, its OpenAPI fragments
// and its filters. One module per kind implements this (registered in index.ts); the
// emitters loop over fields and ask the field's kind, so no emitter switches on kinds.
import type { FieldCommon, FieldDescriptor, FieldKind, FieldOf, FilterDescriptor } from "../../runtime/descriptor.js";
import type { ApiSpec, FieldSpec, ModelSpec } from "../dsl/index.js";
import type { IrApi, IrModel } from "../ir/index.js";
import type { Table } from "../emit/schema.js";

export type Schema = Record<string, unknown>;

export interface SchemaContext {
  model: IrModel;
  /** The model's own table, being built. */
  table: Table;
  /** Tables a field adds beside its model's (join tables), by name. */
  extraTables: Record<string, Table>;
  /** Table of a model key. */
  tableOf(key: string): string;
  /** The type of a model key's primary key column (`uuid` or `integer`), which links to it share. */
  keyType(key: string): string;
  /** Adds a row `table` starts with (Table.seedRows): `sql` inserts it unless it is there. */
  seedRow(table: string, key: string, sql: string): void;
}

/** What a kind's schemas may ask about other models. */
export interface IdContext {
  /** The schema of a model key's ids: a UUID string, or an integer. */
  idOf(key: string): Schema;
}

export interface OpenApiContext extends IdContext {
  api: IrApi;
  model: IrModel;
  version: string;
  /** Inside another object (nested or brief form) rather than the object's own full form. */
  nested: boolean;
  /** `$ref` to the nested form of a model key. */
  nestedRef(key: string): Schema;
  /** The schema of a model key's `fields`, as shown inside another object. */
  shapeOf(key: string, fields: string[]): Schema;
}

export type AddFilter = (param: string, filter: Omit<FilterDescriptor, "param">) => void;

export interface GeneratorFieldKind<F extends FieldDescriptor> {
  /** Adds the field's columns, constraints and indexes (and any table of its own). */
  schema?(f: F, ctx: SchemaContext): void;
  /** The value as the engine reads it. */
  readSchema(f: F, ctx: OpenApiContext): Schema;
  /** The value as a write accepts it; absent when the kind is never written. */
  writeSchema?(f: F, ctx: IdContext): Schema;
  /** The list filters the field offers. */
  filters?(f: F, add: AddFilter): void;
}

export type GeneratorKindTable = { [K in FieldKind]: GeneratorFieldKind<FieldOf<K>> };

/** Where a spec field is being checked: its model, its siblings, and how to report. */
export interface SpecCheckContext {
  api: ApiSpec;
  model: ModelSpec;
  /** The field's name. */
  name: string;
  /** The model's declared fields, by name. */
  fields: Record<string, FieldSpec>;
  versions: string[];
  resolve(target: string): { spec: ModelSpec; file: string } | undefined;
  /** Reports an unknown model reference; gives whether it resolved. */
  checkRef(target: string): boolean;
  /** The API's auth.users model reference, if any. */
  users?: string;
  err(message: string): void;
}

export interface SpecBuildContext {
  api: ApiSpec;
  /** The model's key (`dcim.device`). */
  model: string;
  name: string;
  /** The model's table. */
  table: string;
  byRef: Map<string, ModelSpec>;
  /** The model's declared fields, by name. */
  fields: Record<string, FieldSpec>;
}

/** A spec field kind's rules: what makes it sound, and the descriptor it becomes. */
export interface SpecRules<S extends FieldSpec, F extends FieldDescriptor> {
  check(spec: S, ctx: SpecCheckContext): void;
  build(spec: S, common: FieldCommon, ctx: SpecBuildContext): F;
}

export type SpecKindTable = { [K in FieldSpec["kind"]]: SpecRules<Extract<FieldSpec, { kind: K }>, FieldOf<K>> };

/** `name` plus `name__<lookup>` for each lookup. */
export function withLookups(add: AddFilter, name: string, kind: FilterDescriptor["kind"], lookups: string[], field = name): void {
  add(name, { kind, field, lookup: "exact" });
  for (const l of lookups) add(`${name}__${l}`, { kind, field, lookup: l });
}

export function nullable(schema: Schema, isNullable: boolean): Schema {
  if (!isNullable) return schema;
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/** The ids of most models. */
export const UUID_ID: Schema = { type: "string", format: "uuid" };

/** How a related object is written: its id (of schema `id`), or attributes that identify exactly one. */
export function relatedWrite(id: Schema): Schema {
  return { anyOf: [id, { type: "object", description: "Attributes that identify exactly one object.", additionalProperties: {} }] };
}

/** How an object of a model with UUID ids is written. */
export const RELATED_WRITE: Schema = relatedWrite(UUID_ID);
