// Writes a dump (format.ts): every table of the database in dependency order, its sequences
// and the media folder's files, from one read-only snapshot, a batch of rows at a time through
// a cursor, so memory stays flat whatever the database's size. Rows are PostgreSQL's own JSON of
// them (row_to_json), passed through as text: nothing is parsed or reshaped on the way. Writes
// nothing to the database.
import type { Writable } from "node:stream";
import { once } from "node:events";
import { open, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { Knex } from "knex";
import type { ApiDescriptor } from "../descriptor.js";
import { catalogTables, MIGRATIONS_TABLE, quoted, sequenceValues } from "./catalog.js";
import { FILE_CHUNK, FORMAT, VERSION, type EndLine, type Excludable, type Header } from "./format.js";

export interface DumpOptions {
  apis: ApiDescriptor[];
  embedded: boolean;
  exclude: Excludable[];
  mediaRoot: string;
}

/** Rows fetched from the cursor at a time. */
const BATCH = 1000;

/** The change log's tables (each API's `changeLog` model): what `--exclude changes` leaves out. */
export function changeLogTables(apis: ApiDescriptor[]): Set<string> {
  return new Set(apis.flatMap((a) => a.models.filter((m) => m.key === a.changeLog).map((m) => m.table)));
}

/** Writes lines to `out`, waiting whenever it asks to (a slow pipe or disk). */
class Lines {
  constructor(private readonly out: Writable) {}
  async write(line: string): Promise<void> {
    if (!this.out.write(`${line}\n`)) await once(this.out, "drain");
  }
}

export async function dump(db: Knex, out: Writable, opts: DumpOptions): Promise<EndLine> {
  const lines = new Lines(out);
  const skipped = opts.exclude.includes("changes") ? changeLogTables(opts.apis) : new Set<string>();
  const end: EndLine = { end: true, tables: 0, rows: 0, files: 0 };
  await db.transaction(async (trx) => {
    // One text for one value on every server: times in UTC, intervals and bytes in one style.
    await trx.raw("SET LOCAL TimeZone = 'UTC'; SET LOCAL IntervalStyle = 'postgres'; SET LOCAL bytea_output = 'hex'");
    const migrations = (await trx(MIGRATIONS_TABLE).select("api", "name").orderBy("applied").orderBy("api").orderBy("name")) as Array<{ api: string; name: string }>;
    const header: Header = {
      format: FORMAT,
      version: VERSION,
      created: new Date().toISOString(),
      database: opts.embedded ? "pglite" : "postgresql",
      migrations: migrations.map((m) => `${m.api}/${m.name}`),
      excluded: opts.exclude,
    };
    await lines.write(JSON.stringify(header));
    for (const table of await catalogTables(trx)) {
      if (skipped.has(table.name)) continue;
      const { count } = (await trx.raw(`SELECT count(*)::int AS count FROM ${quoted(table.name)}`)).rows[0];
      await lines.write(JSON.stringify({ table: table.name, columns: table.columns, rows: count }));
      const select = `SELECT ${table.columns.map(quoted).join(", ")} FROM ${quoted(table.name)}${table.order.length ? ` ORDER BY ${table.order.join(", ")}` : ""}`;
      await trx.raw(`DECLARE armature_dump NO SCROLL CURSOR FOR SELECT row_to_json(r)::text AS j FROM (${select}) r${table.order.length ? "" : ' ORDER BY j COLLATE "C"'}`);
      let written = 0;
      for (;;) {
        const rows = (await trx.raw(`FETCH ${BATCH} FROM armature_dump`)).rows as Array<{ j: string }>;
        if (!rows.length) break;
        for (const row of rows) await lines.write(row.j);
        written += rows.length;
      }
      await trx.raw("CLOSE armature_dump");
      if (written !== count) throw new Error(`${table.name}: counted ${count} rows, read ${written}`);
      end.tables++;
      end.rows += written;
    }
    await lines.write(JSON.stringify({ sequences: await sequenceValues(trx) }));
  }, { isolationLevel: "repeatable read", readOnly: true });
  if (!opts.exclude.includes("media")) end.files = await dumpMedia(lines, opts.mediaRoot);
  await lines.write(JSON.stringify(end));
  return end;
}

/** Every file below `root`, as paths relative to it with `/`, in code-point order. */
export async function mediaFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  return entries.filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function dumpMedia(lines: Lines, root: string): Promise<number> {
  const files = await mediaFiles(root);
  const buffer = Buffer.alloc(FILE_CHUNK);
  for (const name of files) {
    const handle = await open(join(root, name), "r");
    try {
      const { size } = await handle.stat();
      const chunks = Math.ceil(size / FILE_CHUNK);
      await lines.write(JSON.stringify({ file: name, bytes: size, chunks }));
      for (let n = 0; n < chunks; n++) {
        const want = Math.min(FILE_CHUNK, size - n * FILE_CHUNK);
        const { bytesRead } = await handle.read(buffer, 0, want, n * FILE_CHUNK);
        if (bytesRead !== want) throw new Error(`media file ${name} changed while it was dumped`);
        await lines.write(JSON.stringify(buffer.subarray(0, want).toString("base64")));
      }
    } finally {
      await handle.close();
    }
  }
  return files.length;
}
