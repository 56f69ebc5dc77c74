// Opens the database: PostgreSQL through `pg` when a URL is given, otherwise PGlite
// (PostgreSQL in WebAssembly) through its node-postgres adapter, so both give the same
// result types. Gives a Knex instance and a close function; runs no SQL of its own. A data
// directory is locked to this process for as long as it is open (runtime/db/dir-lock.ts).
import knex, { type Knex } from "knex";
import pg from "pg";
import { mkdirSync } from "node:fs";
import { lockDataDir, type DirLock } from "./dir-lock.js";
import { preparingClient, StatementNames } from "./prepared.js";

export interface Database {
  knex: Knex;
  /** True on the embedded engine, which has a single connection. */
  embedded: boolean;
  close(): Promise<void>;
}

// int8 (counts, bigint columns) arrive as strings from pg; the serializers convert the
// fields they know are numbers, so the parser is left as pg ships it.

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<Database> {
  const client = preparingClient(new StatementNames());
  if (opts.databaseUrl) {
    // JIT compiling pays off for long analytic scans, not for reads made of many small
    // sub-selects: its cost estimate fires on a device list and compiling then takes seconds
    // (15 s for seven devices with config contexts, against 50 ms without JIT).
    const db = knex({ client, connection: { connectionString: opts.databaseUrl, options: "-c jit=off" }, pool: { min: 0, max: opts.poolSize ?? 10 } });
    return { knex: db, embedded: false, close: () => db.destroy() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  let lock: DirLock | undefined;
  if (opts.dataDir !== "memory://") {
    mkdirSync(opts.dataDir, { recursive: true });
    lock = await lockDataDir(opts.dataDir);
  }
  const pglite = lock ? new PGlite(opts.dataDir) : new PGlite();
  try {
    await pglite.waitReady;
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const pool = new pg.Pool({ ...createPgConfig(pglite), connectionTimeoutMillis: 5000 } as pg.PoolConfig);
  const db = knex({ client, connectionPool: pool } as unknown as Knex.Config);
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
