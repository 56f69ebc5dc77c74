// Migration emitter: compares the schema the spec implies with the last snapshot emitted
// and, when they differ, writes one new migration and the new snapshot. Earlier migration
// files are passed through untouched: they are never rewritten.
import type { Column, OwnedRows, Schema, Table } from "./schema.js";
import { sqlLiteral } from "../kinds/sql-literal.js";
import { byCodePoint, constraintNames, migrationName } from "../ir/names.js";
import { REPLACES } from "../../runtime/descriptor.js";

export interface MigrationState {
  /** The snapshot of the schema as of the newest existing migration, or null for none. */
  snapshot: Schema | null;
  /** Existing migration files, name → SQL. */
  existing: Record<string, string>;
  /** Files no longer emitted (another stream's migration replaces them): later numbers come after theirs. */
  retired?: string[];
}

const q = (ident: string) => `"${ident}"`;

function columnSql(name: string, c: Column): string {
  const parts = [q(name), c.type];
  if (c.primaryKey) parts.push("PRIMARY KEY");
  if (!c.nullable && !c.primaryKey) parts.push("NOT NULL");
  if (c.default !== undefined) parts.push(`DEFAULT ${c.default}`);
  return parts.join(" ");
}

function fkSql(table: string, name: string, c: Column): string {
  const ref = c.references!;
  return `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(constraintNames.foreignKey(table, name))} FOREIGN KEY (${q(name)}) ` +
    `REFERENCES ${q(ref.table)} (${q(ref.column ?? "id")}) ON DELETE ${ref.onDelete}${ref.onUpdate ? ` ON UPDATE ${ref.onUpdate}` : ""} DEFERRABLE INITIALLY IMMEDIATE;`;
}

function indexSql(table: string, name: string, idx: Table["indexes"][string]): string {
  // A column name is quoted; an expression (in parentheses, already quoted) is printed as written.
  const term = (c: string) => (c.startsWith("(") ? c : c.split(" ").map((p, i) => (i === 0 ? q(p) : p)).join(" "));
  const cols = idx.columns.map(term).join(", ");
  return `CREATE INDEX ${q(name)} ON ${q(table)} USING ${idx.using} (${cols});`;
}

function createTableSql(name: string, t: Table): string[] {
  const cols = Object.keys(t.columns).sort((a, b) => (a === "id" ? -1 : b === "id" ? 1 : byCodePoint(a, b)));
  const lines = cols.map((c) => `  ${columnSql(c, t.columns[c])}`);
  if (t.primaryKey) lines.push(`  PRIMARY KEY (${t.primaryKey.map(q).join(", ")})`);
  for (const [u, ucols] of Object.entries(t.uniques)) lines.push(`  CONSTRAINT ${q(u)} UNIQUE (${ucols.map(q).join(", ")})`);
  const out = [`CREATE TABLE ${q(name)} (\n${lines.join(",\n")}\n);`];
  for (const [i, idx] of Object.entries(t.indexes)) out.push(indexSql(name, i, idx));
  return out;
}

/** What the spec says about existing rows, for steps that would otherwise lose or refuse them. */
export interface MigrationIntents {
  /** Table → (column → the column it was renamed from). */
  renames: Record<string, Record<string, string>>;
  /** Table → (column → SQL value existing rows get when it becomes required). */
  backfills: Record<string, Record<string, string>>;
  /** `table.column`s whose default, `''`, is no value of their field: existing rows need a backfill instead. */
  blankDefaults: Set<string>;
  /** Tables and `table.column`s whose data may be destroyed. */
  discard: Set<string>;
  /** Where a table or column comes from, for messages: `spec/…: model X, field y`. */
  origin(table: string, column?: string): string;
}

const NO_INTENTS: MigrationIntents = { renames: {}, backfills: {}, blankDefaults: new Set(), discard: new Set(), origin: () => "" };

/** Type changes that keep every value: longer varchar, varchar to text, wider numbers. */
function widens(from: string, to: string): boolean {
  const varchar = (t: string) => Number(/^varchar\((\d+)\)$/.exec(t)?.[1] ?? NaN);
  if (!Number.isNaN(varchar(from))) return to === "text" || varchar(to) >= varchar(from);
  return (from === "integer" && (to === "bigint" || to === "double precision")) || (from === "bigint" && to === "double precision");
}

/**
 * The SQL statements that take a database from `before` to `after`, a short summary, and
 * the steps refused because they would lose data the spec did not give up (`refusals`).
 */
export function diffSchemas(before: Schema, after: Schema, intents: MigrationIntents = NO_INTENTS):
  { statements: string[]; summary: string[]; refusals: string[] } {
  const statements: string[] = [];
  const foreignKeys: string[] = [];
  const summary: string[] = [];
  const refusals: string[] = [];
  const names = (o: object) => Object.keys(o).sort(byCodePoint);
  const discards = (table: string, column?: string) => intents.discard.has(column === undefined ? table : `${table}.${column}`);

  for (const name of names(after.tables)) {
    const t = after.tables[name];
    const old = before.tables[name];
    if (t.external) continue;
    if (!old) {
      statements.push(...createTableSql(name, t));
      for (const c of names(t.columns)) if (t.columns[c].references) foreignKeys.push(fkSql(name, c, t.columns[c]));
      summary.push(`create_${name}`);
      continue;
    }
    const oldColumns = { ...old.columns };
    for (const [c, from] of Object.entries(intents.renames[name] ?? {}).sort(([a], [b]) => byCodePoint(a, b))) {
      // Once renamed (the snapshot has the new column), the spec's renamedFrom asks nothing more.
      if (!oldColumns[from] || oldColumns[c] || !t.columns[c]) continue;
      statements.push(`ALTER TABLE ${q(name)} RENAME COLUMN ${q(from)} TO ${q(c)};`);
      if (oldColumns[from].references) {
        statements.push(`ALTER TABLE ${q(name)} RENAME CONSTRAINT ${q(constraintNames.foreignKey(name, from))} TO ${q(constraintNames.foreignKey(name, c))};`);
      }
      oldColumns[c] = oldColumns[from];
      delete oldColumns[from];
      summary.push(`rename_${name}_${from}`);
    }
    // A required string's '' default serves creates that give the field; existing rows given it
    // would hold a value the field refuses, so they need a backfill as any other type's would.
    const defaultFills = (c: string, now: Column) => now.default !== undefined && !intents.blankDefaults.has(`${name}.${c}`);
    const backfill = (c: string, now: Column) => intents.backfills[name]?.[c] ?? (defaultFills(c, now) ? now.default : undefined);
    for (const c of names(t.columns)) {
      const now = t.columns[c];
      const was = oldColumns[c];
      if (!was) {
        const fill = backfill(c, now);
        if (!now.nullable && !defaultFills(c, now)) {
          // Rows already there would have no value: add it empty, fill it, then require it.
          if (fill === undefined) {
            refusals.push(`${intents.origin(name, c)}: the migration would add required column ${name}.${c} to existing rows with no value; give the field a default or a backfill`);
            continue;
          }
          statements.push(`ALTER TABLE ${q(name)} ADD COLUMN ${columnSql(c, { ...now, nullable: true })};`);
          statements.push(`UPDATE ${q(name)} SET ${q(c)} = ${fill};`);
          statements.push(`ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} SET NOT NULL;`);
        } else statements.push(`ALTER TABLE ${q(name)} ADD COLUMN ${columnSql(c, now)};`);
        if (now.references) foreignKeys.push(fkSql(name, c, now));
        summary.push(`add_${name}_${c}`);
        continue;
      }
      if (was.type !== now.type && !widens(was.type, now.type) && !discards(name, c)) {
        refusals.push(`${intents.origin(name, c)}: the migration would change ${name}.${c} from ${was.type} to ${now.type}, which can lose values; ` +
          `list it in the api's discard to accept that`);
        continue;
      }
      if (was.type !== now.type) {
        statements.push(`ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} TYPE ${now.type} USING ${q(c)}::${now.type};`);
        summary.push(`alter_${name}_${c}`);
      }
      if (was.default !== now.default) {
        statements.push(now.default === undefined
          ? `ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} DROP DEFAULT;`
          : `ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} SET DEFAULT ${now.default};`);
        summary.push(`alter_${name}_${c}`);
      }
      if (was.nullable !== now.nullable) {
        if (!now.nullable) {
          const fill = backfill(c, now);
          if (fill === undefined) {
            refusals.push(`${intents.origin(name, c)}: the migration would make ${name}.${c} required, but existing rows may hold no value; give the field a default or a backfill`);
            continue;
          }
          statements.push(`UPDATE ${q(name)} SET ${q(c)} = ${fill} WHERE ${q(c)} IS NULL;`);
        }
        statements.push(`ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} ${now.nullable ? "DROP" : "SET"} NOT NULL;`);
        summary.push(`alter_${name}_${c}`);
      }
      if (JSON.stringify(was.references) !== JSON.stringify(now.references)) {
        if (was.references) statements.push(`ALTER TABLE ${q(name)} DROP CONSTRAINT ${q(constraintNames.foreignKey(name, c))};`);
        if (now.references) foreignKeys.push(fkSql(name, c, now));
        summary.push(`alter_${name}_${c}`);
      }
    }
    for (const c of names(oldColumns)) {
      if (t.columns[c]) continue;
      if (!discards(name, c)) {
        refusals.push(`${intents.origin(name)}: the migration would drop column ${name}.${c} and its data; if the field was renamed, ` +
          `give the new field renamedFrom; to discard the data, list the field in the api's discard`);
        continue;
      }
      statements.push(`ALTER TABLE ${q(name)} DROP COLUMN ${q(c)};`);
      summary.push(`remove_${name}_${c}`);
    }
    for (const u of names(old.uniques)) {
      if (JSON.stringify(old.uniques[u]) !== JSON.stringify(t.uniques[u])) {
        statements.push(`ALTER TABLE ${q(name)} DROP CONSTRAINT IF EXISTS ${q(u)};`);
      }
    }
    for (const u of names(t.uniques)) {
      if (JSON.stringify(old.uniques[u]) !== JSON.stringify(t.uniques[u])) {
        statements.push(`ALTER TABLE ${q(name)} ADD CONSTRAINT ${q(u)} UNIQUE (${t.uniques[u].map(q).join(", ")});`);
        summary.push(`unique_${name}`);
      }
    }
    for (const i of names(old.indexes)) {
      if (JSON.stringify(old.indexes[i]) !== JSON.stringify(t.indexes[i])) statements.push(`DROP INDEX IF EXISTS ${q(i)};`);
    }
    for (const i of names(t.indexes)) {
      if (JSON.stringify(old.indexes[i]) !== JSON.stringify(t.indexes[i])) {
        statements.push(indexSql(name, i, t.indexes[i]));
        summary.push(`index_${name}`);
      }
    }
  }
  const sqlBlocks: string[] = [];
  const undoBlocks: string[] = [];
  for (const key of names(after.sql ?? {})) {
    const now = after.sql![key];
    if (before.sql?.[key]?.up === now.up) continue;
    sqlBlocks.push(`-- ${key}\n${now.up.trim()}`);
    summary.push(`sql_${key.replace(/[^A-Za-z0-9]+/g, "_").toLowerCase()}`);
  }
  for (const key of names(before.sql ?? {})) {
    if (after.sql?.[key]) continue;
    const down = before.sql![key].down;
    if (down === undefined) {
      refusals.push(`${intents.origin("")}: the migration would drop SQL block "${key}" with no way to undo it; give it a down (and generate) before removing it`);
      continue;
    }
    undoBlocks.push(`-- undo ${key}\n${down.trim()}`);
    summary.push(`undo_${key.replace(/[^A-Za-z0-9]+/g, "_").toLowerCase()}`);
  }
  for (const name of names(before.tables)) {
    if (after.tables[name] || before.tables[name].external) continue;
    if (!discards(name)) {
      refusals.push(`${intents.origin(name)}: the migration would drop table ${name} and its rows; to discard them, list the model (or field) in the api's discard`);
      continue;
    }
    statements.push(`DROP TABLE ${q(name)} CASCADE;`);
    summary.push(`delete_${name}`);
  }
  const rows: string[] = [];
  for (const name of names({ ...before.tables, ...after.tables })) {
    // Rows another stream's table no longer gets from this one are deleted; a table this stream
    // drops takes its rows with it.
    const owned = after.tables[name]?.rows ?? (before.tables[name]?.external && before.tables[name].rows ? { byKey: {} } : undefined);
    if (!owned) continue;
    const changed = ownedRowsSql(name, before.tables[name]?.rows, owned);
    if (changed.length) summary.push(`rows_${name}`);
    rows.push(...changed);
  }
  // A new table's first rows, once the rows they may name exist.
  const seeds = names(after.tables).filter((n) => !before.tables[n] && after.tables[n].seed).map((n) => after.tables[n].seed!);
  // Rows the spec starts a table with, each the first time its key appears; in table-name
  // order, so a table's rows come before its join tables' (`<table>_<field>`), which name them.
  for (const name of names(after.tables)) {
    const now = after.tables[name].seedRows ?? {};
    const was = before.tables[name]?.seedRows ?? {};
    const fresh = names(now).filter((k) => was[k] === undefined);
    if (fresh.length) summary.push(`seed_${name}`);
    seeds.push(...fresh.map((k) => now[k]));
  }
  // Removed hand-written SQL is undone first, while what it names still exists. Foreign keys
  // come after the rows, so a key to rows the migration itself inserts (a status's slug) holds
  // when it is checked; new or changed SQL runs last, once everything it names exists.
  return { statements: [...undoBlocks, ...statements, ...rows, ...seeds, ...foreignKeys, ...sqlBlocks], summary: [...new Set(summary)], refusals };
}

/** The inserts, updates and deletes that take a table's owned rows from `was` to `now` (ids given). */
function ownedRowsSql(table: string, was: OwnedRows | undefined, now: OwnedRows): string[] {
  const out: string[] = [];
  const old = was?.byKey ?? {};
  const added: string[] = [];
  let columns: string[] = [];
  for (const key of Object.keys(now.byKey).sort(byCodePoint)) {
    const { id, values } = now.byKey[key];
    columns = Object.keys(values).sort(byCodePoint);
    if (!old[key]) added.push(`  (${[String(id), ...columns.map((c) => sqlLiteral(values[c]))].join(", ")})`);
    else if (JSON.stringify(old[key].values) !== JSON.stringify(values)) {
      out.push(`UPDATE ${q(table)} SET ${columns.map((c) => `${q(c)} = ${sqlLiteral(values[c])}`).join(", ")} WHERE "id" = ${id};`);
    }
  }
  if (added.length) out.unshift(`INSERT INTO ${q(table)} (${["id", ...columns].map(q).join(", ")}) VALUES\n${added.join(",\n")};`);
  const gone = Object.keys(old).sort(byCodePoint).filter((key) => !now.byKey[key]).map((key) => old[key].id);
  if (gone.length) out.push(`DELETE FROM ${q(table)} WHERE "id" IN (${gone.join(", ")});`);
  return out;
}

/**
 * Where owned rows' ids come from besides a stream's own snapshot. Ids are given across every
 * stream of a table (an app's content types beside the API's), so each stream's new ids start
 * at the highest any stream has reached (`floor`); a row that moved from another stream keeps
 * the id it had there (`carried`).
 */
export interface RowIds {
  floor(table: string): number;
  carried(table: string, key: string): number | undefined;
}

const OWN_IDS: RowIds = { floor: () => 1, carried: () => undefined };

/** `after` with every owned row's id: kept from `before`, carried, or the next unused one, in key order. */
function withRowIds(after: Schema, before: Schema, ids: RowIds): Schema {
  const tables: Record<string, Table> = {};
  for (const [name, t] of Object.entries(after.tables)) {
    if (!t.rows) {
      tables[name] = t;
      continue;
    }
    const was = before.tables[name]?.rows;
    // Unchanged unless an id is given, so another stream's ids never touch this snapshot.
    let nextId = was?.nextId;
    const byKey: OwnedRows["byKey"] = {};
    for (const key of Object.keys(t.rows.byKey).sort(byCodePoint)) {
      let id = was?.byKey[key]?.id ?? ids.carried(name, key);
      if (id === undefined) id = Math.max(nextId ?? 1, ids.floor(name));
      if (!was?.byKey[key]) nextId = Math.max(nextId ?? 1, id + 1);
      byKey[key] = { id, values: t.rows.byKey[key].values };
    }
    tables[name] = { ...t, rows: { byKey, ...(nextId === undefined ? {} : { nextId }) } };
  }
  return { ...after, tables };
}

/** A file-name label: all changes when short, else the first whole ones that fit and "_and_more". */
function migrationLabel(summary: string[]): string {
  const all = summary.join("_");
  if (summary.length <= 3 && all.length <= 80) return all || "change";
  const kept: string[] = [];
  for (const s of summary.slice(0, 3)) {
    if ([...kept, s].join("_").length > 70) break;
    kept.push(s);
  }
  return `${kept.length ? kept.join("_") : summary[0].slice(0, 70)}_and_more`;
}

/** Where a stream's migrations come from, for their header, and what its first one takes over. */
export interface StreamOrigin {
  /** The spec folder, `spec/inventory/` or `apps/bgp/spec/`. */
  source: string;
  /** Migrations of other streams (`<stream>/<file>`) that did what this stream's first does, on databases migrated before it existed. */
  replaces?: string[];
}

/** Existing migrations plus, when the schema changed, a new one; and the snapshot to keep. */
export function emitMigrations(origin: StreamOrigin, schema: Schema, state: MigrationState, intents?: MigrationIntents, ids: RowIds = OWN_IDS): {
  files: Array<{ name: string; sql: string }>;
  snapshot: Schema;
  refusals: string[];
} {
  const files = Object.keys(state.existing).sort(byCodePoint).map((name) => ({ name, sql: state.existing[name] }));
  const before = state.snapshot ?? { tables: {} };
  const after = withRowIds(schema, before, ids);
  const { statements, summary, refusals } = diffSchemas(before, after, intents);
  if (refusals.length) return { files, snapshot: before, refusals };
  if (statements.length) {
    const first = state.snapshot === null;
    const numbers = [...files.map((f) => f.name), ...(state.retired ?? [])].map((n) => Number.parseInt(n, 10));
    const name = migrationName(Math.max(0, ...numbers) + 1, first ? "initial" : migrationLabel(summary));
    const replaces = first && origin.replaces?.length ? origin.replaces.map((r) => `${REPLACES}${r}\n`).join("") : "";
    files.push({
      name,
      sql: `-- Code generated by make generate from ${origin.source}. DO NOT EDIT.\n-- Migration ${name}.\n${replaces}\n${statements.join("\n\n")}\n`,
    });
  }
  return { files, snapshot: after, refusals };
}
