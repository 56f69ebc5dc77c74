// The database schema an IR implies: tables, columns, constraints and indexes, as plain
// sorted data that serialises to the snapshot file. Takes the IR; gives a Schema. Writes
// no SQL (migrations.ts turns differences between two schemas into SQL).
import type { FieldDescriptor } from "../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../ir/index.js";
import { byCodePoint, constraintName } from "../ir/names.js";

export interface Column {
  type: string;
  nullable: boolean;
  /** SQL default expression. */
  default?: string;
  primaryKey?: boolean;
  /** Foreign key target table and delete rule. */
  references?: { table: string; onDelete: "RESTRICT" | "CASCADE" | "SET NULL" };
}

export interface Table {
  columns: Record<string, Column>;
  /** Unique constraints by name: the columns they cover. */
  uniques: Record<string, string[]>;
  /** Indexes by name: the expression list and method. */
  indexes: Record<string, { using: string; columns: string[] }>;
  /** Primary key over several columns (join tables). */
  primaryKey?: string[];
}

export interface Schema {
  tables: Record<string, Table>;
}

const ON_DELETE = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL" } as const;

function sqlLiteral(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "NULL";
  return `'${String(value).replace(/'/g, "''")}'`;
}

function scalarType(f: FieldDescriptor): string {
  switch (f.type) {
    case "uuid": return "uuid";
    case "string": return f.maxLength ? `varchar(${f.maxLength})` : "text";
    case "text": case "password": return "text";
    case "integer": return (f.max ?? 0) > 2147483647 || (f.min ?? 0) < -2147483648 ? "bigint" : "integer";
    case "float": return "double precision";
    case "boolean": return "boolean";
    case "date": return "date";
    case "datetime": return "timestamptz";
    case "json": return "jsonb";
    case "cidr": return "cidr";
    case "ip": return "inet";
    default: throw new Error(`no column type for ${f.type}`);
  }
}

function scalarDefault(f: FieldDescriptor): string | undefined {
  if (f.default === "now") return f.type === "date" ? "CURRENT_DATE" : "now()";
  if (f.default !== undefined && typeof f.default !== "object") {
    return f.type === "json" ? `${sqlLiteral(JSON.stringify(f.default))}::jsonb` : sqlLiteral(f.default);
  }
  if (f.default && typeof f.default === "object" && !("randomHex" in f.default)) {
    return `${sqlLiteral(JSON.stringify(f.default))}::jsonb`;
  }
  if (!f.nullable && (f.type === "string" || f.type === "text")) return "''";
  return undefined;
}

/** Primary and foreign key column type: `uuid`, or `integer` for APIs with serial ids. */
function keyType(ir: IrApi): string {
  return ir.idType === "serial" ? "integer" : "uuid";
}

function modelTable(m: IrModel, tables: Map<string, string>, key = "uuid"): Table {
  const t: Table = { columns: {}, uniques: {}, indexes: {} };
  for (const f of m.fields) {
    switch (f.kind) {
      case "id":
        t.columns.id = key === "uuid"
          ? { type: "uuid", nullable: false, default: "gen_random_uuid()", primaryKey: true }
          : { type: "serial", nullable: false, primaryKey: true };
        break;
      case "scalar": {
        const col: Column = { type: scalarType(f), nullable: f.nullable };
        const def = scalarDefault(f);
        if (def) col.default = def;
        t.columns[f.column!] = col;
        if (f.unique) t.uniques[constraintName(m.table, `${f.column}_key`)] = [f.column!];
        if (f.type === "cidr" || f.type === "ip") {
          t.indexes[constraintName(m.table, `${f.column}_gist`)] = { using: "gist", columns: [`${f.column} inet_ops`] };
        }
        break;
      }
      case "choice": {
        const numeric = typeof f.choices![0][0] === "number";
        const col: Column = { type: numeric ? "integer" : "varchar(50)", nullable: f.nullable };
        if (f.default !== undefined) col.default = sqlLiteral(f.default);
        else if (!f.nullable && !numeric) col.default = "''";
        t.columns[f.column!] = col;
        t.indexes[constraintName(m.table, `${f.column}_idx`)] = { using: "btree", columns: [f.column!] };
        break;
      }
      case "fk":
        t.columns[f.column!] = {
          type: key,
          nullable: f.nullable || !f.required || f.name === "parent",
          references: { table: tables.get(f.target!)!, onDelete: ON_DELETE[f.onDelete ?? "protect"] },
        };
        t.indexes[constraintName(m.table, `${f.column}_idx`)] = { using: "btree", columns: [f.column!] };
        break;
      case "customFields":
        t.columns[f.column!] = { type: "jsonb", nullable: false, default: "'{}'::jsonb" };
        break;
    }
  }
  for (const group of m.uniqueTogether) {
    const cols = group.map((n) => m.fields.find((f) => f.name === n)!.column!);
    t.uniques[constraintName(m.table, `${cols.join("_")}_uniq`)] = cols;
  }
  // The index must match the runtime's ORDER BY exactly (direction, and NULLS FIRST on
  // foreign keys), or every page of a list sorts the whole table.
  const ordered = m.ordering.map((o) => ({ o, f: m.fields.find((f) => f.name === o.field) })).filter((x) => x.f?.column);
  const orderCols = ordered.map(({ o, f }) => `${f!.column}${o.desc ? " DESC" : ""}${f!.kind === "fk" ? " NULLS FIRST" : ""}`);
  if (orderCols.length && !(orderCols.length === 1 && Object.values(t.uniques).some((u) => u.length === 1 && u[0] === orderCols[0]))) {
    t.indexes[constraintName(m.table, "ordering_idx")] = { using: "btree", columns: [...orderCols, "id"] };
  }
  return t;
}

export function buildSchema(ir: IrApi): Schema {
  const tables = new Map(ir.models.map((m) => [m.key, m.table]));
  const out: Record<string, Table> = {};
  for (const m of ir.models) {
    out[m.table] = modelTable(m, tables, keyType(ir));
    for (const f of m.fields) {
      if (f.kind === "m2m") {
        out[f.through!.table] = {
          columns: {
            [f.through!.source]: { type: keyType(ir), nullable: false, references: { table: m.table, onDelete: "CASCADE" } },
            [f.through!.target]: { type: keyType(ir), nullable: false, references: { table: tables.get(f.target!)!, onDelete: "CASCADE" } },
          },
          uniques: {},
          indexes: { [constraintName(f.through!.table, `${f.through!.target}_idx`)]: { using: "btree", columns: [f.through!.target] } },
          primaryKey: [f.through!.source, f.through!.target],
        };
      }
      if (f.kind === "tags" && !out[f.through!.table]) {
        out[f.through!.table] = {
          columns: {
            tag_id: { type: "uuid", nullable: false, references: { table: tables.get(f.target!)!, onDelete: "CASCADE" } },
            object_type: { type: "varchar(100)", nullable: false },
            object_id: { type: "uuid", nullable: false },
          },
          uniques: {},
          indexes: { [constraintName(f.through!.table, "object_idx")]: { using: "btree", columns: ["object_type", "object_id"] } },
          primaryKey: ["tag_id", "object_type", "object_id"],
        };
      }
    }
  }
  return { tables: sortKeys(out) };
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
