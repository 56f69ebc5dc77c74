// Loads a dump (format.ts) into an empty database: the schema migrated to the dump's
// migrations, then every row, sequence and media file in one transaction, then the
// migrations this build adds. A bulk restore: rows are written as they were dumped (ids,
// timestamps, change records), directly into their tables and not through the operation
// pipeline, so no change record, webhook or permission check is made for them; the tables'
// own triggers (kept counts) are held off, as the dumped counts are already right. Refuses
// a database holding any row, and a dump it cannot read whole; either way nothing is left
// changed, the schema included: it is made in the same transaction.
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import type { Knex } from "knex";
import type { ApiDescriptor } from "../descriptor.js";
import { isApplied, migrate, replacedBy, type MigrationSet } from "../db/migrate.js";
import { advisoryLock } from "../db/locks.js";
import { migrationSets } from "../db/runtime-migrations.js";
import { catalogTables, MIGRATIONS_TABLE, quoted, tablesWithRows, type CatalogTable } from "./catalog.js";
import { changeLogTables } from "./dump.js";
import { FORMAT, VERSION, type EndLine, type Excludable, type FileLine, type Header, type SequencesLine, type TableLine } from "./format.js";

/** A dump or a database that load refuses: the command says so and exits 1, having changed nothing. */
export class LoadRefused extends Error {}

/** Rows inserted by one statement at most, and characters of JSON: a batch is all the memory a load holds. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 4 * 1024 * 1024;

/** The dump's lines one at a time, gzip or not (told by its first bytes). */
export async function openDump(file: string): Promise<{ next(): Promise<string | undefined>; close(): void }> {
  const handle = await open(file, "r").catch((err: NodeJS.ErrnoException) => {
    throw new LoadRefused(`cannot read ${file}: ${err.code === "ENOENT" ? "no such file" : err.message}`);
  });
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0);
  await handle.close();
  const raw = createReadStream(file);
  const input: Readable = magic[0] === 0x1f && magic[1] === 0x8b ? raw.pipe(createGunzip()) : raw;
  input.on("error", () => undefined);
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  return {
    next: async () => {
      const { value, done } = await lines.next();
      return done ? undefined : value;
    },
    close: () => raw.destroy(),
  };
}

/** Reads the header line and checks this build can load it (its format, version and migrations). */
export function readHeader(line: string | undefined, sets: MigrationSet[]): Header {
  let header: Partial<Header>;
  try {
    header = JSON.parse(line ?? "");
  } catch {
    throw new LoadRefused("not an Armature dump: its first line is not JSON");
  }
  if (header?.format !== FORMAT) throw new LoadRefused("not an Armature dump: its first line does not say format \"armature-dump\"");
  if (header.version !== VERSION) throw new LoadRefused(`dump format version ${header.version}: this build reads version ${VERSION}`);
  // A migration another of this build replaces is known too: its work is in the schema.
  const known = new Set(sets.flatMap((s) => s.migrations.flatMap((m) => [`${s.api}/${m.name}`, ...replacedBy(m.sql)])));
  const unknown = (header.migrations ?? []).filter((m) => !known.has(m));
  if (unknown.length) throw new LoadRefused(`the dump was taken by a newer build: this build lacks its migration(s) ${unknown.join(", ")}`);
  return header as Header;
}

export interface LoadOptions {
  apis: ApiDescriptor[];
  exclude: Excludable[];
  mediaRoot: string;
}

export interface Loaded extends EndLine {
  /** Migrations of this build the dump predates, applied after the load. */
  migrated: string[];
}

export async function load(db: Knex, file: string, opts: LoadOptions): Promise<Loaded> {
  const sets = migrationSets(opts.apis);
  const reader = await openDump(file);
  const media = new MediaWrites(opts.mediaRoot);
  try {
    const header = readHeader(await reader.next(), sets);
    // Refused before anything is written; asked again under the migrations' lock, which keeps
    // an instance starting meanwhile from migrating or writing until the load is in.
    await refuseUnlessEmpty(db);
    return await db.transaction(async (trx) => {
      await advisoryLock(trx, MIGRATIONS_TABLE, "migrate");
      await refuseUnlessEmpty(trx);
      // The schema the dump's rows fit: its migrations and no later one until they are in.
      const dumped = new Set(header.migrations);
      await migrate(trx, sets.map((s) => ({ ...s, migrations: s.migrations.filter((m) => isApplied(dumped, s.api, m)) })));
      const end = await fill(trx, reader, opts, media);
      return { ...end, migrated: await migrate(trx, sets) };
    });
  } catch (err) {
    await media.undo();
    throw err;
  } finally {
    reader.close();
  }
}

/** A database any table of which holds a row is refused (the migrations' own record aside). */
async function refuseUnlessEmpty(db: Knex): Promise<void> {
  const holding = await tablesWithRows(db, await catalogTables(db));
  if (!holding.length) return;
  const named = holding.slice(0, 5).join(", ") + (holding.length > 5 ? `, and ${holding.length - 5} more` : "");
  throw new LoadRefused(`the database is not empty: ${holding.length} table(s) hold rows (${named}). `
    + "load fills only a new database (a new PostgreSQL database, or a new DATA_DIR), before any `armature migrate`, `serve` or `run`: it migrates it itself");
}

/** Writes every section of the dump in `trx`, checking it against its end line. */
async function fill(trx: Knex.Transaction, reader: Awaited<ReturnType<typeof openDump>>, opts: LoadOptions, media: MediaWrites): Promise<EndLine> {
  const tables = new Map((await catalogTables(trx)).map((t) => [t.name, t]));
  const skipped = opts.exclude.includes("changes") ? changeLogTables(opts.apis) : new Set<string>();
  // Checked at the commit, once every table is in: rows may come before the rows they name.
  await trx.raw("SET CONSTRAINTS ALL DEFERRED");
  const held = [...tables.values()].filter((t) => t.triggers);
  for (const t of held) await trx.raw(`ALTER TABLE ${quoted(t.name)} DISABLE TRIGGER USER`);
  // The rows the migrations write (content types, statuses) are in the dump as the source kept them.
  if (tables.size) await trx.raw(`TRUNCATE ${[...tables.keys()].map(quoted).join(", ")}`);
  const seen: EndLine = { end: true, tables: 0, rows: 0, files: 0 };
  for (let line = await reader.next(); ; line = await reader.next()) {
    if (line === undefined) throw new LoadRefused("the dump is cut short: it has no end line");
    const control = parseLine(line) as Partial<TableLine & SequencesLine & FileLine & EndLine>;
    if (control.table !== undefined) {
      seen.rows += await loadTable(trx, reader, control as TableLine, tables, skipped.has(control.table));
      seen.tables++;
    } else if (control.sequences) {
      for (const s of control.sequences) await trx.raw("SELECT setval(?::regclass, ?::bigint, ?)", [quoted(s.name), s.last_value, s.is_called]);
    } else if (control.file !== undefined) {
      await media.write(control as FileLine, reader, opts.exclude.includes("media"));
      seen.files++;
    } else if (control.end) {
      if (control.tables !== seen.tables || control.rows !== seen.rows || control.files !== seen.files) {
        throw new LoadRefused(`the dump does not add up: its end says ${control.tables} tables, ${control.rows} rows, ${control.files} files; it holds ${seen.tables}, ${seen.rows}, ${seen.files}`);
      }
      break;
    } else {
      throw new LoadRefused(`unexpected line in the dump: ${line.slice(0, 80)}`);
    }
  }
  // The deferred checks now, every row being in: a table with checks pending cannot be altered.
  await trx.raw("SET CONSTRAINTS ALL IMMEDIATE");
  for (const t of held) await trx.raw(`ALTER TABLE ${quoted(t.name)} ENABLE TRIGGER USER`);
  return seen;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new LoadRefused(`a line of the dump is not JSON: ${line.slice(0, 80)}`);
  }
}

/** Inserts a table's rows in batches, each one statement that reads them as the table's row type. */
async function loadTable(trx: Knex.Transaction, reader: Awaited<ReturnType<typeof openDump>>, section: TableLine, tables: Map<string, CatalogTable>, skip: boolean): Promise<number> {
  const target = tables.get(section.table);
  if (!target) throw new LoadRefused(`the dump has table ${section.table}, which this database lacks`);
  const missing = section.columns.filter((c) => !target.columns.includes(c));
  if (missing.length) throw new LoadRefused(`table ${section.table} lacks the dump's column(s) ${missing.join(", ")}`);
  const columns = section.columns.map(quoted).join(", ");
  const insert = `INSERT INTO ${quoted(section.table)} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${quoted(section.table)}, ?::json)`;
  let batch: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length && !skip) await trx.raw(insert, [`[${batch.join(",")}]`]);
    batch = [];
    chars = 0;
  };
  for (let n = 0; n < section.rows; n++) {
    const row = await reader.next();
    if (row === undefined) throw new LoadRefused(`the dump is cut short in table ${section.table}`);
    if (!row.startsWith("{")) throw new LoadRefused(`table ${section.table}: row ${n + 1} is not a JSON object`);
    batch.push(row);
    chars += row.length;
    if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
  }
  await flush();
  return section.rows;
}

/** Media files written by a load: each whole before it gets its name, all removed if the load fails. */
class MediaWrites {
  private readonly written: string[] = [];
  constructor(private readonly root: string) {}

  async write(section: FileLine, reader: Awaited<ReturnType<typeof openDump>>, skip: boolean): Promise<void> {
    const path = resolve(this.root, section.file);
    if (!path.startsWith(resolve(this.root) + sep)) throw new LoadRefused(`media file ${section.file} would be outside the media folder`);
    if (!skip && (await stat(path).then(() => true, () => false))) throw new LoadRefused(`the media folder already holds ${section.file}`);
    const partial = `${path}.loading`;
    if (!skip) {
      await mkdir(dirname(path), { recursive: true });
      this.written.push(partial);
    }
    const handle = skip ? undefined : await open(partial, "w");
    let bytes = 0;
    try {
      for (let n = 0; n < section.chunks; n++) {
        const line = await reader.next();
        if (line === undefined) throw new LoadRefused(`the dump is cut short in media file ${section.file}`);
        const data = Buffer.from(parseLine(line) as string, "base64");
        bytes += data.length;
        await handle?.write(data);
      }
    } finally {
      await handle?.close();
    }
    if (bytes !== section.bytes) throw new LoadRefused(`media file ${section.file}: ${bytes} bytes where the dump says ${section.bytes}`);
    if (skip) return;
    await rename(partial, path);
    this.written[this.written.length - 1] = path;
  }

  async undo(): Promise<void> {
    for (const path of this.written) await rm(path, { force: true });
  }
}
