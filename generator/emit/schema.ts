// The database schema an IR implies: tables, columns, constraints and indexes, as plain
// sorted data that serialises to the snapshot file. Takes the IR; gives a Schema. Writes
// no SQL (migrations.ts turns differences between two schemas into SQL).
import { sortTerms, storedColumn, type SortTerm } from "../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../ir/index.js";
import { byCodePoint, constraintNames } from "../ir/names.js";
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

export function buildSchema(ir: IrApi): Schema {
  const out: Record<string, Table> = {};
  const extraTables: Record<string, Table> = {};
  const seeded: Record<string, Record<string, string>> = {};
  const seedRow = (table: string, key: string, sql: string) => { (seeded[table] ??= {})[key] = sql; };
  const ctx = schemaContext(ir, extraTables, seedRow);
  for (const m of ir.models) {
    if (m.view) continue;
    out[m.table] = modelTable(m, ctx);
    for (const [key, values] of Object.entries(m.rows)) {
      const cols = Object.keys(values).sort(byCodePoint);
      seedRow(m.table, key, `INSERT INTO "${m.table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((c) => values[c]).join(", ")}) ON CONFLICT DO NOTHING;`);
    }
  }
  for (const [table, rows] of Object.entries(seeded)) {
    const t = out[table] ?? extraTables[table];
    t.seedRows = { ...t.seedRows, ...rows };
  }
  if (ir.contentTypeRows) {
    out[ir.contentTypeRows.table].rows = { byKey: Object.fromEntries(Object.entries(ir.contentTypeRows.rows).map(([k, values]) => [k, { values }])) };
  }
  const tablesOut = { tables: sortKeys({ ...out, ...extraTables }) };
  return Object.keys(ir.sql).length ? { ...tablesOut, sql: sortKeys(ir.sql) } : tablesOut;
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
