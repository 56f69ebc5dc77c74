// Rows of one model written together, their values bound as one JSON array typed by the
// table's own row type (json_populate_recordset), so a bulk write of any size is one
// statement per shape (the columns a row sets, and how each is set): new rows are one INSERT,
// changed rows one UPDATE … FROM per shape. A row whose values JSON cannot carry exactly (a
// Date, an array, a raw SQL with bindings) is written alone, or the set as multi-row inserts.
// Knows no model: the columns come from the rows, JSON columns from the kinds.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import { ident } from "../query/sql.js";
import { prepared } from "../db/prepared.js";
import { chunksWithin } from "../db/chunks.js";
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

/** A row's shape: each column it sets (undefined ones left out, as Knex leaves them) and how, a null setter where JSON cannot carry the value. */
const shapeOf = (row: Record<string, unknown>, json: Set<string>): Array<[string, string | null]> =>
  Object.entries(row).filter(([, v]) => v !== undefined).map(([c, v]) => [c, setter(v, json.has(c))]);

/** The values of `row` the bound JSON carries for a shape (SQL setters carry none), after `start`'s. */
function carried(shape: Array<[string, string]>, row: Record<string, unknown>, start: Record<string, unknown> = {}): Record<string, unknown> {
  const out = start;
  for (const [c, how] of shape) if (!how.startsWith("sql:")) out[c] = row[c];
  return out;
}

/** The SQL of a column's value read from the bound JSON's row `v`, by its setter. */
const valueOf = (column: string, how: string) =>
  (how.startsWith("sql:") ? how.slice(4) : how === "json" ? `(v.${ident(column)} #>> '{}')::jsonb` : `v.${ident(column)}`);

/**
 * Inserts every row, and gives their ids in the rows' order: where all set the same columns
 * the same way, one statement whatever their number, of the same text for every set of that
 * shape (planned once per connection); otherwise multi-row inserts within the statement's
 * parameters, where a thousand rows' nine columns were 9,000 parameters to bind and a text to
 * parse anew each time (9 ms of PostgreSQL's, besides building them). The rows come back in
 * the order of their ordinality, as an insert's values come back in order.
 */
export async function insertRows(db: Db, m: ModelDescriptor, rows: Array<Record<string, unknown>>): Promise<Array<string | number>> {
  const json = jsonColumns(m);
  const columns = rows.length ? shapeOf(rows[0], json) : [];
  const key = JSON.stringify(columns);
  const shared = columns.length > 0 && columns.every(([, how]) => how !== null) && rows.every((row) => JSON.stringify(shapeOf(row, json)) === key);
  if (!shared) {
    const ids: Array<string | number> = [];
    for (const part of chunksWithin(rows)) ids.push(...(await db(m.table).insert(part).returning("id")).map((r: { id: string | number }) => r.id));
    return ids;
  }
  const set = columns as Array<[string, string]>;
  const values = rows.map((row) => carried(set, row));
  const table = ident(m.table);
  const { rows: inserted } = await prepared(db.raw(`INSERT INTO ${table} (${set.map(([c]) => ident(c)).join(", ")}) ` +
    `SELECT ${set.map(([c, how]) => valueOf(c, how)).join(", ")} FROM json_populate_recordset(NULL::${table}, ?::json) WITH ORDINALITY AS v ` +
    "ORDER BY v.ordinality RETURNING id", [JSON.stringify(values)]));
  return (inserted as Array<{ id: string | number }>).map((r) => r.id);
}

/** Updates every row: one statement per shape of change (columns and how each is set), a statement per row JSON cannot carry. */
export async function updateRows(db: Db, m: ModelDescriptor, changes: RowChange[]): Promise<void> {
  const json = jsonColumns(m);
  const shapes = new Map<string, { columns: Array<[string, string]>; rows: RowChange[] }>();
  for (const change of changes) {
    const columns = shapeOf(change.row, json);
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
    const sets = columns.map(([c, how]) => `${ident(c)} = ${valueOf(c, how)}`);
    const values = rows.map(({ id, row }) => carried(columns, row, { id }));
    await db.raw(`UPDATE ${table} AS t SET ${sets.join(", ")} FROM json_populate_recordset(NULL::${table}, ?::json) AS v WHERE t.id = v.id`, [JSON.stringify(values)]);
  }
}
