// Migration emitter: compares the schema the spec implies with the last snapshot emitted
// and, when they differ, writes one new migration and the new snapshot. Earlier migration
// files are passed through untouched: they are never rewritten.
import type { Column, Schema, Table } from "./schema.js";
import { byCodePoint, constraintNames, migrationName } from "../ir/names.js";

export interface MigrationState {
  /** The snapshot of the schema as of the newest existing migration, or null for none. */
  snapshot: Schema | null;
  /** Existing migration files, name → SQL. */
  existing: Record<string, string>;
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
    `REFERENCES ${q(ref.table)} ("id") ON DELETE ${ref.onDelete} DEFERRABLE INITIALLY IMMEDIATE;`;
}

function indexSql(table: string, name: string, idx: Table["indexes"][string]): string {
  const cols = idx.columns.map((c) => c.split(" ").map((p, i) => (i === 0 ? q(p) : p)).join(" ")).join(", ");
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

/** The SQL statements that take a database from `before` to `after`, and a short summary. */
export function diffSchemas(before: Schema, after: Schema): { statements: string[]; summary: string[] } {
  const statements: string[] = [];
  const foreignKeys: string[] = [];
  const summary: string[] = [];
  const names = (o: object) => Object.keys(o).sort(byCodePoint);

  for (const name of names(after.tables)) {
    const t = after.tables[name];
    const old = before.tables[name];
    if (!old) {
      statements.push(...createTableSql(name, t));
      for (const c of names(t.columns)) if (t.columns[c].references) foreignKeys.push(fkSql(name, c, t.columns[c]));
      summary.push(`create_${name}`);
      continue;
    }
    for (const c of names(t.columns)) {
      const now = t.columns[c];
      const was = old.columns[c];
      if (!was) {
        statements.push(`ALTER TABLE ${q(name)} ADD COLUMN ${columnSql(c, now)};`);
        if (now.references) foreignKeys.push(fkSql(name, c, now));
        summary.push(`add_${name}_${c}`);
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
        statements.push(`ALTER TABLE ${q(name)} ALTER COLUMN ${q(c)} ${now.nullable ? "DROP" : "SET"} NOT NULL;`);
        summary.push(`alter_${name}_${c}`);
      }
      if (JSON.stringify(was.references) !== JSON.stringify(now.references)) {
        if (was.references) statements.push(`ALTER TABLE ${q(name)} DROP CONSTRAINT ${q(constraintNames.foreignKey(name, c))};`);
        if (now.references) foreignKeys.push(fkSql(name, c, now));
        summary.push(`alter_${name}_${c}`);
      }
    }
    for (const c of names(old.columns)) {
      if (!t.columns[c]) {
        statements.push(`ALTER TABLE ${q(name)} DROP COLUMN ${q(c)};`);
        summary.push(`remove_${name}_${c}`);
      }
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
  for (const name of names(before.tables)) {
    if (!after.tables[name]) {
      statements.push(`DROP TABLE ${q(name)} CASCADE;`);
      summary.push(`delete_${name}`);
    }
  }
  return { statements: [...statements, ...foreignKeys], summary: [...new Set(summary)] };
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

/** Existing migrations plus, when the schema changed, a new one; and the snapshot to keep. */
export function emitMigrations(apiName: string, schema: Schema, state: MigrationState): {
  files: Array<{ name: string; sql: string }>;
  snapshot: Schema;
} {
  const files = Object.keys(state.existing).sort(byCodePoint).map((name) => ({ name, sql: state.existing[name] }));
  const before = state.snapshot ?? { tables: {} };
  const { statements, summary } = diffSchemas(before, schema);
  if (statements.length) {
    const name = migrationName(files.length + 1, state.snapshot === null ? "initial" : migrationLabel(summary));
    files.push({
      name,
      sql: `-- Code generated by make generate from spec/${apiName}/. DO NOT EDIT.\n-- Migration ${name}.\n\n${statements.join("\n\n")}\n`,
    });
  }
  return { files, snapshot: schema };
}
