// The database schema an IR implies: tables, columns, constraints and indexes, as plain
// sorted data that serialises to the snapshot file. Takes the IR; gives a Schema. Writes
// no SQL (migrations.ts turns differences between two schemas into SQL).
import { sortTerms, storedColumn, type SortTerm } from "../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../ir/index.js";
import { byCodePoint, constraintNames, sqlBlockKey } from "../ir/names.js";
import { kindOf } from "../kinds/index.js";
import type { SchemaContext } from "../kinds/types.js";

export interface Column {
  type: string;
  nullable: boolean;
  /** SQL default expression. */
  default?: string;
  primaryKey?: boolean;
  /** Foreign key target table (its `id`, or `column`), delete rule and, when not NO ACTION, update rule. */
  references?: { table: string; column?: string; onDelete: "RESTRICT" | "CASCADE" | "SET NULL"; onUpdate?: "CASCADE" };
}

export interface Table {
  columns: Record<string, Column>;
  /** Unique constraints by name: the columns they cover. */
  uniques: Record<string, string[]>;
  /** Indexes by name: the expression list and method. */
  indexes: Record<string, { using: string; columns: string[] }>;
  /** Primary key over several columns (join tables). */
  primaryKey?: string[];
  /** SQL run once, right after the table is created: the rows it starts with. */
  seed?: string;
  /** Rows the migrations keep in step with the spec (the content-type registry): see OwnedRows. */
  rows?: OwnedRows;
  /**
   * The table is another stream's: this one only adds the rows and seed rows here, and never
   * creates, alters or drops it.
   */
  external?: boolean;
  /**
   * Rows the spec gives the table to start with, by key: the SQL that inserts each unless it is
   * there. Each runs once, in the migration where its key first appears; users own them after.
   */
  seedRows?: Record<string, string>;
}

/**
 * Rows of a table that the spec decides, by key: their column values and, once a migration has
 * written them, the integer id each was given. Ids are given in key order to new keys, from
 * `nextId` on, and never given again, so every database holds the same id for the same row.
 */
export interface OwnedRows {
  byKey: Record<string, { id?: number; values: Record<string, string> }>;
  nextId?: number;
}

export interface Schema {
  tables: Record<string, Table>;
  /** Hand-written SQL blocks as last emitted, by key (absent when the spec has none). */
  sql?: Record<string, { up: string; down?: string }>;
}

/** A model's primary key column type, which links to it share: `integer` in APIs with serial ids and for integer-keyed models, else `uuid`. */
function keyTypes(ir: IrApi): (key: string) => string {
  const integer = new Set(ir.models.filter((m) => m.fields.some((f) => f.kind === "id" && f.integer)).map((m) => m.key));
  return (key) => (ir.idType === "serial" || integer.has(key) ? "integer" : "uuid");
}

function modelTable(m: IrModel, ctx: Omit<SchemaContext, "model" | "table">): Table {
  const t: Table = { columns: {}, uniques: {}, indexes: {} };
  for (const f of m.fields) kindOf(f).schema?.(f, { ...ctx, model: m, table: t });
  for (const { fields: group } of m.uniqueTogether) {
    const cols = group.map((n) => storedColumn(m.fields.find((f) => f.name === n)!)!);
    t.uniques[constraintNames.uniqueTogether(m.table, cols)] = cols;
  }
  // The index must match the runtime's ORDER BY exactly (direction, and NULLS FIRST on
  // links), or every page of a list sorts the whole table. A term through links sorts by a
  // column of another table, which no index here can hold: the index keeps the first link's
  // column in its place, so the rows of each related row come in the order of the terms after
  // it, and the planner walks the related table's index and this one in step.
  const terms = m.ordering.flatMap((o, i): SortTerm[] => {
    const link = o.through?.[0];
    if (link) {
      const column = storedColumn(m.fields.find((x) => x.name === link)!)!;
      return m.ordering[i - 1]?.through?.[0] === link ? [] : [{ column, desc: false, nullsFirst: false }];
    }
    const f = m.fields.find((x) => x.name === o.field);
    return f && f.kind !== "id" ? sortTerms(f, o.desc) : [];
  });
  for (const ix of m.indexes) t.indexes[constraintNames.extra(m.table, ix.columns, ix.using)] = { using: ix.using, columns: ix.columns };
  // An expression term is written whole, in parentheses (migrations print it as is).
  const orderCols = terms.map((s) => `${s.expression ? `(${s.expression(`"${s.column}"`)})` : s.column}${s.desc ? " DESC" : ""}${s.nullsFirst ? " NULLS FIRST" : ""}`);
  if (orderCols.length && !(orderCols.length === 1 && Object.values(t.uniques).some((u) => u.length === 1 && u[0] === orderCols[0]))) {
    t.indexes[constraintNames.ordering(m.table)] = { using: "btree", columns: [...orderCols, "id"] };
  }
  return t;
}

/** What the kinds' schema steps are given besides the model: where join tables and seed rows go. */
function schemaContext(ir: IrApi, extraTables: Record<string, Table>, seedRow: SchemaContext["seedRow"]): Omit<SchemaContext, "model" | "table"> {
  const tables = new Map(ir.models.map((m) => [m.key, m.table]));
  return { extraTables, tableOf: (key: string) => tables.get(key)!, keyType: keyTypes(ir), seedRow };
}

/** The columns of every model's table, views' too (their rows read like any other), by model key. */
export function modelColumns(ir: IrApi): Map<string, Record<string, Column>> {
  const ctx = schemaContext(ir, {}, () => undefined);
  return new Map(ir.models.map((m) => [m.key, modelTable(m, ctx).columns]));
}

/** Who owns a model's tables and rows: "" the API itself, else the app (its folder name) that adds the model. */
const ownerOf = (m: IrModel): string => m.plugin?.name ?? "";

/**
 * The schema the IR implies, one per migration stream: the API's own (key "") and each app's.
 * A table belongs to the owner of the model that makes it, the API's own models going first so
 * that a table both make (the tags' assignments) is the API's. An app's rows in a table of
 * another owner (content types, a status's links) are in the app's schema as an `external`
 * table that holds just those rows.
 */
export function buildSchemas(ir: IrApi): Map<string, Schema> {
  const owners = new Map<string, string>();
  const out: Record<string, Table> = {};
  const extraTables: Record<string, Table> = {};
  const seeded = new Map<string, Record<string, Record<string, string>>>();
  let owner = "";
  const seedRow = (table: string, key: string, sql: string) => {
    const byTable = seeded.get(owner) ?? seeded.set(owner, {}).get(owner)!;
    (byTable[table] ??= {})[key] = sql;
  };
  const ctx = schemaContext(ir, extraTables, seedRow);
  const models = [...ir.models].sort((a, b) => Number(ownerOf(a) !== "") - Number(ownerOf(b) !== ""));
  for (const m of models) {
    if (m.view) continue;
    owner = ownerOf(m);
    const known = new Set(Object.keys(extraTables));
    out[m.table] = modelTable(m, ctx);
    owners.set(m.table, owner);
    for (const t of Object.keys(extraTables)) if (!known.has(t)) owners.set(t, owner);
    for (const [key, values] of Object.entries(m.rows)) {
      const cols = Object.keys(values).sort(byCodePoint);
      seedRow(m.table, key, `INSERT INTO "${m.table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((c) => values[c]).join(", ")}) ON CONFLICT DO NOTHING;`);
    }
  }
  const streams = new Map<string, Record<string, Table>>([["", {}], ...(ir.plugins ?? []).map((p) => [p.name, {}] as [string, Record<string, Table>])]);
  const tableIn = (stream: string, name: string): Table => {
    const tables = streams.get(stream)!;
    if (owners.get(name) === stream) return (tables[name] ??= (out[name] ?? extraTables[name]));
    return (tables[name] ??= { columns: {}, uniques: {}, indexes: {}, external: true });
  };
  for (const name of Object.keys({ ...out, ...extraTables })) tableIn(owners.get(name)!, name);
  for (const [stream, byTable] of seeded) {
    for (const [table, rows] of Object.entries(byTable)) {
      const t = tableIn(stream, table);
      t.seedRows = { ...t.seedRows, ...rows };
    }
  }
  if (ir.contentTypeRows) {
    const byModel = new Map(ir.models.map((m) => [m.key, ownerOf(m)]));
    for (const [key, values] of Object.entries(ir.contentTypeRows.rows)) {
      const t = tableIn(byModel.get(key)!, ir.contentTypeRows.table);
      t.rows = { byKey: { ...t.rows?.byKey, [key]: { values } } };
    }
  }
  const sqlOwner = new Map(ir.models.map((m) => [sqlBlockKey(m.app, m.name, ""), ownerOf(m)]));
  const sqlOf = (stream: string) => Object.fromEntries(Object.entries(ir.sql)
    .filter(([key]) => (sqlOwner.get(key.slice(0, key.indexOf(":") + 1)) ?? "") === stream));
  return new Map([...streams].map(([stream, tables]) => {
    const sql = sqlOf(stream);
    const schema: Schema = { tables: sortKeys(tables) };
    return [stream, Object.keys(sql).length ? { ...schema, sql: sortKeys(sql) } : schema];
  }));
}

/** Deep copy with object keys in code-point order, so the snapshot file is stable. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort(byCodePoint)) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out as T;
  }
  return value;
}
