// Rows of one model changed together: the rows that set the same columns the same way are one
// UPDATE … FROM json_populate_recordset(…), their values bound as one JSON array and typed by
// the table's own row type, so a bulk update of any size is one statement per shape of change.
// A row whose values JSON cannot carry exactly (a Date, an array, a raw SQL with bindings) is
// updated alone. Knows no model: the columns come from the rows, JSON columns from the kinds.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import { ident } from "../query/sql.js";
import { jsonColumns } from "./hook-rows.js";

type Db = Knex | Knex.Transaction;

/** A row to change: its id, and the columns a write sets (values, or SQL such as `CURRENT_TIMESTAMP`). */
export interface RowChange {
  id: string | number;
  row: Record<string, unknown>;
}

/** A lone surrogate, which JSON escapes and PostgreSQL refuses to read back, where the driver would bind U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isRaw = (v: unknown): v is Knex.Raw => typeof v === "object" && v !== null && (v as { isRawInstance?: boolean }).isRawInstance === true;

/**
 * How a value is set from the bound JSON: `v` (as its column's type reads it), `json` (text a
 * JSON column, jsonb as the generator makes them all, parses: numbers keep the form written),
 * SQL text (the same for every row of the shape), or null when JSON cannot carry it as the
 * driver would bind it (undefined, a Date, an array, an object, a lone surrogate).
 */
function setter(value: unknown, json: boolean): string | null {
  if (value === undefined) return null;
  if (value === null) return "v";
  if (isRaw(value)) {
    const { sql, bindings } = value.toSQL();
    return bindings.length ? null : `sql:${sql}`;
  }
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? null : json ? "json" : "v";
  if (json) return null;
  if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return "v";
  return null;
}

/** Updates every row: one statement per shape of change (columns and how each is set), a statement per row JSON cannot carry. */
export async function updateRows(db: Db, m: ModelDescriptor, changes: RowChange[]): Promise<void> {
  const json = jsonColumns(m);
  const shapes = new Map<string, { columns: Array<[string, string]>; rows: RowChange[] }>();
  for (const change of changes) {
    const columns = Object.entries(change.row).map(([c, v]): [string, string | null] => [c, setter(v, json.has(c))]);
    if (!columns.length) continue;
    if (columns.some(([, s]) => s === null)) {
      await db(m.table).where("id", change.id).update(change.row);
      continue;
    }
    const key = JSON.stringify(columns);
    const shape = shapes.get(key) ?? { columns: columns as Array<[string, string]>, rows: [] };
    shapes.set(key, shape);
    shape.rows.push(change);
  }
  const table = ident(m.table);
  for (const { columns, rows } of shapes.values()) {
    if (rows.length === 1) {
      await db(m.table).where("id", rows[0].id).update(rows[0].row);
      continue;
    }
    const sets = columns.map(([c, how]) => {
      if (how.startsWith("sql:")) return `${ident(c)} = ${how.slice(4)}`;
      return how === "json" ? `${ident(c)} = (v.${ident(c)} #>> '{}')::jsonb` : `${ident(c)} = v.${ident(c)}`;
    });
    const values = rows.map(({ id, row }) => {
      const out: Record<string, unknown> = { id };
      for (const [c, how] of columns) if (!how.startsWith("sql:")) out[c] = row[c];
      return out;
    });
    await db.raw(`UPDATE ${table} AS t SET ${sets.join(", ")} FROM json_populate_recordset(NULL::${table}, ?::json) AS v WHERE t.id = v.id`, [JSON.stringify(values)]);
  }
}
