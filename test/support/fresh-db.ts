// In-memory embedded databases for the tests, started from a dump of a data directory rather
// than by initdb: a new PGlite cluster runs initdb, some 2.5 s of CPU, where one loaded from a
// tarball (PGlite's loadDataDir) starts in about 0.5 s. A test run keeps the dump of an empty
// cluster in a folder of its own (the mocha process's id, shared by its workers): the first
// process to need one makes it; a process that finds none makes its own, so nobody waits.
// PGlite only: nothing here talks to PostgreSQL.
//
// runtime/db/connect.ts opens a directory or a new cluster, never a dump, so the wiring is
// repeated here as it is there (PGlite's settings, its node-postgres adapter, Knex with the
// preparing client): keep the two alike.
import knex, { type Knex } from "knex";
import pg from "pg";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markEmbedded, type Database } from "../../runtime/db/connect.js";
import { preparingClient, StatementNames } from "../../runtime/db/prepared.js";
import { inWorker, runPid } from "./run.js";
import { migrateAll } from "../../runtime/cli.js";
import { apis } from "../../generated/server.js";

/** runtime/db/connect.ts's EMBEDDED_SETTINGS. */
const EMBEDDED_SETTINGS = ["shared_buffers=16MB", "wal_buffers=1MB", "maintenance_work_mem=8MB"];

const runDirOf = (pid: number) => join(tmpdir(), `armature-test-${pid}`);

/** Removes the dumps of the run whose mocha process is `pid` (hooks.ts, at the run's start and end). */
export function removeRunDumps(pid: number): void {
  rmSync(runDirOf(pid), { recursive: true, force: true });
}

// Run serially, this process is the run: its dumps go when it exits.
if (!inWorker) process.on("exit", () => removeRunDumps(runPid));

export interface EmbeddedDatabase extends Database {
  /** The cluster as a tarball, for loadDataDir. */
  dump(): Promise<Blob>;
}

/**
 * An in-memory cluster, new (initdb) or loaded from `from`, opened as openDatabase opens the
 * embedded engine; `waitMs`: how long a query waits for the one connection (0: for as long as it takes).
 */
export async function openEmbedded(from?: Blob, waitMs = 5000): Promise<EmbeddedDatabase> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((s) => ["-c", s])];
  const pglite = new PGlite(from ? { startParams, loadDataDir: from } : { startParams });
  await pglite.waitReady;
  const pool = new pg.Pool({ ...createPgConfig(pglite), connectionTimeoutMillis: waitMs } as pg.PoolConfig);
  const db = knex({ client: preparingClient(new StatementNames()), connectionPool: pool } as unknown as Knex.Config);
  markEmbedded(db);
  return {
    knex: db,
    embedded: true,
    dump: () => pglite.dumpDataDir("none"),
    close: async () => {
      await db.destroy();
      await pool.end().catch(() => undefined);
      await pglite.close();
    },
  };
}

/** The run's dump named `name`, if a process of the run saved it. */
export function savedDump(name: string): Blob | undefined {
  const path = join(runDirOf(runPid), `${name}.tar`);
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined;
}

/** Saves a dump for the run's other processes; written aside and renamed, so a reader never sees half of one. */
export async function saveDump(name: string, dump: Blob): Promise<void> {
  const dir = runDirOf(runPid);
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `${name}.${process.pid}.partial`);
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, join(dir, `${name}.tar`));
}

const dumps = new Map<string, Promise<Blob>>();

/**
 * The run's dump `name`: the first process of the run to ask makes it (`make`, dumped and
 * closed) and saves it for the others; a process that finds none saved makes its own, so
 * nobody waits on another process.
 */
function runDump(name: string, make: () => Promise<EmbeddedDatabase>): Promise<Blob> {
  let dump = dumps.get(name);
  if (!dump) {
    const found = savedDump(name);
    dump = found ? Promise.resolve(found) : make().then(async (db) => {
      const made = await db.dump();
      await db.close();
      await saveDump(name, made);
      return made;
    });
    dumps.set(name, dump);
  }
  return dump;
}

/** The run's dump of an empty cluster (initdb's), made by the first process of the run to ask. */
export const emptyClusterDump = (): Promise<Blob> => runDump("empty", () => openEmbedded());

/**
 * Unpacks a cluster's dump (PGlite's dumpDataDir: a tarball of its files, paths from "/") into
 * `dir`, a data directory PGlite then opens as any other.
 */
export function unpackCluster(dump: Blob, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  return dump.arrayBuffer().then((bytes) => {
    // tar takes the leading "/" off and says so on stderr.
    execFileSync("tar", ["-x", "-f", "-", "-C", dir], { input: Buffer.from(bytes), stdio: ["pipe", "ignore", "pipe"] });
    // Dumped from a running cluster; no process runs on the copy.
    rmSync(join(dir, "postmaster.pid"), { force: true });
  });
}

/** A new, empty embedded database of the caller's own: what `openDatabase({ dataDir: "memory://" })` gives. */
export async function freshEmbeddedDatabase(): Promise<Database> {
  return openEmbedded(await emptyClusterDump());
}

/**
 * A new embedded database of the caller's own with every API's migrations applied: what
 * `migrateAll` makes of a fresh one, its CPU (initdb and 52 migrations) spent once a run.
 */
export async function migratedEmbeddedDatabase(): Promise<Database> {
  const migrated = await runDump("migrated", async () => {
    const db = await openEmbedded(await emptyClusterDump());
    await migrateAll(db.knex, apis);
    return db;
  });
  return openEmbedded(migrated);
}
