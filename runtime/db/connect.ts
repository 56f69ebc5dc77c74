// Opens the database: PostgreSQL through `pg` when a URL is given, otherwise PGlite
// (PostgreSQL in WebAssembly) through its node-postgres adapter, so both give the same
// result types. Gives a Knex instance and a close function; runs no SQL of its own. A data
// directory is locked to this process for as long as it is open (runtime/db/dir-lock.ts).
import knex, { type Knex } from "knex";
import pg from "pg";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { lockDataDir, type DirLock } from "./dir-lock.js";
import { preparingClient, StatementNames } from "./prepared.js";
import { PrimaryRouting, ReplicaRouting, routeReads, type ClientWrapper, type ReadRouting } from "./replicas.js";

export interface Database {
  knex: Knex;
  /** True on the embedded engine, which has a single connection. */
  embedded: boolean;
  close(): Promise<void>;
}

// int8 (counts, bigint columns) arrive as strings from pg; the serializers convert the
// fields they know are numbers, so the parser is left as pg ships it.

/**
 * PostgreSQL's settings for the embedded engine, after PGlite's own. Everything PostgreSQL
 * allocates lives in the process's WebAssembly memory, which never shrinks: what a setting lets
 * it touch once stays resident. Shared buffers are 128 MB by default, where an embedded
 * database's working set (a development or demo one) fits in a fraction, the rest read from
 * files the operating system already caches; index builds (the migrations' GIN indexes) may take
 * maintenance_work_mem, 64 MB by default, for a table of a few rows.
 */
const EMBEDDED_SETTINGS = ["shared_buffers=16MB", "wal_buffers=1MB", "maintenance_work_mem=8MB"];

/**
 * Makes a new data directory in a child process. PGlite runs initdb in a second PostgreSQL
 * instance of its own, whose WebAssembly memory (and the copy of the new cluster it passes on)
 * the process keeps after it is closed: some 500 MB of resident memory the server would carry
 * for as long as it runs. A child gives it all back when it exits.
 */
function initDataDir(dataDir: string): void {
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  const pglite = import.meta.resolve("@electric-sql/pglite");
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)});
const db = new PGlite(${JSON.stringify(dataDir)});
await db.waitReady;
await db.close();`;
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
}

/** Seconds to wait for a connection when the caller names no bound: never for ever. */
const POOL_TIMEOUT = 5;

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  poolTimeout?: number;
  /** Streaming replicas of `databaseUrl` that take reads (runtime/db/replicas.ts), each with a pool of `replicaPoolSize`. */
  replicaUrls?: string[];
  replicaPoolSize?: number;
  /** Milliseconds a replica may lag behind the primary and still take reads. */
  replicaMaxLagMs?: number;
  /** Milliseconds a read's statement may run before PostgreSQL cancels it (0: no bound). */
  statementTimeoutMs?: number;
}

/**
 * What bounds every statement of a pool this module opened: its connections' statement_timeout
 * (ms), or "embedded" for the in-process engine, which takes the setting and ignores it.
 */
const statementBounds = new WeakMap<Knex, number | "embedded">();

/**
 * Whether a statement on `db` needs a statement timeout of `ms` set for it (SET LOCAL, in a
 * transaction of its own): not where every statement already runs under one as short (a read
 * pool's), nor on the embedded engine, where no setting can stop a statement.
 */
export function needsStatementTimeout(db: Knex | Knex.Transaction, ms: number): boolean {
  const bound = statementBounds.get(db as Knex);
  return bound !== "embedded" && !(bound !== undefined && bound <= ms);
}

/** Marks `db` as the embedded engine's: no statement timeout is set for its statements. */
export function markEmbedded(db: Knex): void {
  statementBounds.set(db, "embedded");
}

/**
 * The connection option that has the server compress large values (TOAST) with lz4 where it
 * can (PostgreSQL 14 and later, built with it): pglz took some 30 ms of a bulk create's 1,000
 * change records, each some 4 kB of JSON, and lz4 is faster to read back too. Nothing where the
 * server cannot, or cannot be asked now (it is down at start-up: a connection made later works
 * as before).
 */
async function toastCompression(url: string, waitMs: number): Promise<string> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: waitMs });
  try {
    await probe.connect();
    const { rows } = await probe.query("SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'");
    return rows[0]?.lz4 ? " -c default_toast_compression=lz4" : "";
  } catch {
    return "";
  } finally {
    await probe.end().catch(() => undefined);
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  // Waiting for a connection, from the pool or from the server, is bounded: a request then
  // fails fast (503) instead of hanging while the database is away or every connection busy.
  const waitMs = (opts.poolTimeout ?? POOL_TIMEOUT) * 1000;
  // One naming of prepared statements for every pool: a statement a replica's pool named and
  // then ran again on the primary's (runtime/db/replicas.ts) means the same there.
  const names = new StatementNames();
  const client = preparingClient(names);
  if (opts.databaseUrl) {
    // JIT compiling pays off for long analytic scans, not for reads made of many small
    // sub-selects: its cost estimate fires on a device list and compiling then takes seconds
    // (15 s for seven devices with config contexts, against 50 ms without JIT).
    // Pipelined connections: a query goes out without waiting for the answers before it
    // (runtime/db/prepared.ts), so a write's statements cost one round trip together.
    const pool = (url: string, size: number, options: string, wrap: ClientWrapper = (c) => c) => knex({
      client: wrap(client),
      connection: { connectionString: url, options, connectionTimeoutMillis: waitMs, pipeline: true } as Knex.PgConnectionConfig,
      pool: { min: 0, max: size, acquireTimeoutMillis: waitMs },
      acquireConnectionTimeout: waitMs,
    });
    const db = pool(opts.databaseUrl, opts.poolSize ?? 10, `-c jit=off${await toastCompression(opts.databaseUrl, waitMs)}`);
    const routing = readRoutingFor(db, opts, (url, size, wrap) => {
      const timeout = opts.statementTimeoutMs ? ` -c statement_timeout=${opts.statementTimeoutMs}` : "";
      const reads = pool(url, size, `-c jit=off${timeout}`, wrap);
      if (opts.statementTimeoutMs) statementBounds.set(reads, opts.statementTimeoutMs);
      // Whoever watches the database's statements (logs, counts) watches them all on `db`.
      for (const event of "query query-response query-error".split(" ")) reads.on(event, (...args: unknown[]) => db.emit(event, ...args));
      return reads;
    });
    if (routing) routeReads(db, routing);
    return { knex: db, embedded: false, close: async () => { await routing?.close(); await db.destroy(); } };
  }
  if (opts.replicaUrls?.length) throw new Error("DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database has no replicas");
  const { PGlite } = await import("@electric-sql/pglite");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  let lock: DirLock | undefined;
  if (opts.dataDir !== "memory://") {
    mkdirSync(opts.dataDir, { recursive: true });
    lock = await lockDataDir(opts.dataDir);
  }
  let pglite: InstanceType<typeof PGlite>;
  try {
    if (lock) initDataDir(opts.dataDir);
    const options = { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((s) => ["-c", s])] };
    pglite = lock ? new PGlite(opts.dataDir, options) : new PGlite(options);
    await pglite.waitReady;
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const pool = new pg.Pool({ ...createPgConfig(pglite), connectionTimeoutMillis: 5000 } as pg.PoolConfig);
  const db = knex({ client, connectionPool: pool } as unknown as Knex.Config);
  markEmbedded(db);
  return {
    knex: db,
    embedded: true,
    close: async () => {
      await db.destroy();
      await pool.end().catch(() => undefined);
      await pglite.close();
      await lock?.release();
    },
  };
}

/**
 * Reads get pools of their own when they differ from writes: bounded by the statement timeout
 * (which a write, a migration or a job's transaction must not be), and on replicas when there are.
 */
function readRoutingFor(db: Knex, opts: DatabaseOptions, pool: (url: string, size: number, wrap?: ClientWrapper) => Knex): ReadRouting | undefined {
  const replicas = opts.replicaUrls ?? [];
  if (!replicas.length && !opts.statementTimeoutMs) return undefined;
  const primaryReads = pool(opts.databaseUrl!, opts.poolSize ?? 10);
  if (!replicas.length) return new PrimaryRouting(primaryReads);
  const settings = { urls: replicas, poolSize: opts.replicaPoolSize ?? opts.poolSize ?? 10, maxLagMs: opts.replicaMaxLagMs ?? 5000 };
  return new ReplicaRouting(db, primaryReads, opts.databaseUrl!, settings, pool);
}
