// The tables a dump carries, read from the database's own catalog (what the migrations made:
// every API's models and link tables and the runtime's tables), with their stored columns,
// primary keys and foreign keys, in an order where a table comes after the tables it refers
// to; and the sequences behind serial ids. Reads only; names no table of its own.
import type { Knex } from "knex";

export interface CatalogTable {
  name: string;
  /** Stored columns in their order (generated columns left out: the database computes them). */
  columns: string[];
  /** What its rows are written in: the primary key's columns, compared byte-wise (COLLATE "C") where they are text, so that every database writes them in one order; empty without a key. */
  order: string[];
  /** Tables this one refers to by a foreign key (itself left out). */
  refers: string[];
  /** Whether it has triggers of its own (kept counts), which a restore must not fire. */
  triggers: boolean;
}

/** The migrations' record: not data, a dump carries it in its header instead. */
export const MIGRATIONS_TABLE = "armature_migrations";

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoted = q;

/** Every table of the current schema but the migrations' record, in dependency order (ties by name). */
export async function catalogTables(db: Knex): Promise<CatalogTable[]> {
  const tables = (await db.raw(`
    SELECT c.oid::int AS oid, c.relname AS name,
      ARRAY(SELECT a.attname::text FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
            ORDER BY a.attnum) AS columns,
      ARRAY(SELECT quote_ident(a.attname) || CASE WHEN a.attcollation <> 0 THEN ' COLLATE "C"' ELSE '' END FROM pg_index i JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, n) ON true
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE i.indrelid = c.oid AND i.indisprimary ORDER BY k.n) AS "order",
      ARRAY(SELECT DISTINCT f.confrelid::regclass::text FROM pg_constraint f
            WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS refers,
      EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal) AS triggers
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> ?
    ORDER BY c.relname`, [MIGRATIONS_TABLE])).rows as Array<CatalogTable & { oid: number }>;
  return dependencyOrder(tables.map(({ oid: _oid, ...t }) => ({ ...t, refers: t.refers.map(unquote) })));
}

/** regclass text quotes names that need it; the catalog's own names do not carry quotes. */
function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
}

/**
 * Tables after the tables they refer to. Where references go round (a cycle), the rest follow in
 * name order: the load defers the foreign keys it can to the commit, which checks them whole.
 */
export function dependencyOrder(tables: CatalogTable[]): CatalogTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const placed = new Set<string>();
  const order: CatalogTable[] = [];
  let pending = [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  while (pending.length) {
    const ready = pending.filter((t) => t.refers.every((r) => placed.has(r) || !byName.has(r)));
    const next = ready.length ? ready : [pending[0]];
    for (const t of next) {
      placed.add(t.name);
      order.push(t);
    }
    pending = pending.filter((t) => !placed.has(t.name));
  }
  return order;
}

export interface SequenceValue {
  name: string;
  /** As text: a sequence counts in bigint. */
  last_value: string;
  is_called: boolean;
}

/** Every sequence of the current schema with where it stands. */
export async function sequenceValues(db: Knex): Promise<SequenceValue[]> {
  const names = (await db.raw(`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`)).rows as Array<{ name: string }>;
  const values: SequenceValue[] = [];
  for (const { name } of names) {
    const row = (await db.raw(`SELECT last_value::text AS last_value, is_called FROM ${q(name)}`)).rows[0];
    values.push({ name, last_value: row.last_value, is_called: row.is_called });
  }
  return values;
}

/** The tables among `tables` that hold at least one row. */
export async function tablesWithRows(db: Knex, tables: CatalogTable[]): Promise<string[]> {
  if (!tables.length) return [];
  const sql = tables.map((t) => `SELECT ${db.raw("?", [t.name]).toQuery()} AS name WHERE EXISTS (SELECT 1 FROM ${q(t.name)})`).join(" UNION ALL ");
  return ((await db.raw(sql)).rows as Array<{ name: string }>).map((r) => r.name);
}
