// `armature dump [FILE]` and `armature load FILE`: where the dump goes or comes from (a file,
// gzip when its name ends in .gz, or stdout), what is said on stderr, and the refusals made
// before a database is touched. The format is format.ts's; dump.ts writes it, load.ts reads it.
import { createWriteStream, existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { Writable } from "node:stream";
import type { Config } from "../config.js";
import type { ApiDescriptor } from "../descriptor.js";
import { openDatabase } from "../db/connect.js";
import { dump } from "./dump.js";
import { load, LoadRefused } from "./load.js";
import type { Excludable } from "./format.js";

export { LoadRefused } from "./load.js";

/** A dump refused before anything was read: nothing to dump. */
export class DumpRefused extends Error {}

export async function dumpCommand(apis: ApiDescriptor[], config: Config, file: string | undefined, exclude: Excludable[]): Promise<string> {
  // Opening an absent data directory would make an empty database only to dump nothing.
  if (!config.databaseUrl && config.dataDir !== "memory://" && !existsSync(join(config.dataDir, "PG_VERSION"))) {
    throw new DumpRefused(`no embedded database in ${config.dataDir} (DATA_DIR); set DATABASE_URL to dump a PostgreSQL one`);
  }
  const db = await openDatabase(config);
  const partial = file ? `${file}.partial` : undefined;
  try {
    const hasSchema = (await db.knex.raw("SELECT to_regclass('armature_migrations') IS NOT NULL AS yes")).rows[0].yes;
    if (!hasSchema) throw new DumpRefused("the database was never migrated: there is nothing to dump");
    let out: Writable = process.stdout;
    let sink: Writable | undefined;
    if (partial) {
      sink = createWriteStream(partial);
      out = file!.endsWith(".gz") ? createGzip() : sink;
      if (out !== sink) out.pipe(sink);
    }
    const end = await dump(db.knex, out, { apis, embedded: db.embedded, exclude, mediaRoot: config.mediaRoot });
    if (sink) {
      out.end();
      await finished(sink);
      // Only a whole dump gets the name asked for: a failed one never passes for a dump.
      await rename(partial!, file!);
    }
    return `dumped ${end.rows} rows of ${end.tables} tables and ${end.files} media file(s)${exclude.length ? `, leaving out ${exclude.join(" and ")}` : ""}${file ? ` to ${file}` : ""}`;
  } catch (err) {
    if (partial) await rm(partial, { force: true });
    throw err;
  } finally {
    await db.close();
  }
}

export async function loadCommand(apis: ApiDescriptor[], config: Config, file: string, exclude: Excludable[]): Promise<string> {
  const db = await openDatabase(config);
  try {
    const loaded = await load(db.knex, file, { apis, exclude, mediaRoot: config.mediaRoot });
    const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`;
    return [
      `loaded ${loaded.rows} rows of ${loaded.tables} tables and ${loaded.files} media file(s) into ${where}${exclude.length ? `, leaving out ${exclude.join(" and ")}` : ""}`,
      "  (a bulk restore: rows written directly, as dumped; no change records, webhooks or permission checks were made for them)",
      ...(loaded.migrated.length ? [`  then applied ${loaded.migrated.length} migration(s) this build adds: ${loaded.migrated.join(", ")}`] : []),
    ].join("\n");
  } catch (err) {
    if (err instanceof LoadRefused) throw err;
    throw new LoadRefused(`load failed, nothing was loaded: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    await db.close();
  }
}
