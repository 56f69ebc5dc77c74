// Mocha root hooks and global fixtures. The suite runs its files in parallel worker processes
// (.mocharc: parallel), and mocha runs root hooks once per file there, so a worker keeps its
// shared test server for its whole life (mocha ends the workers when the run ends) instead of
// starting one per file. Run serially (mocha --no-config FILE…), the server is stopped once,
// after every suite ran. On PostgreSQL each worker gets a database of its own, since the test
// server wipes the schema it starts on.
import { admin } from "./postgres.js";
import { stopTestServer } from "./server.js";
import { removeRunBuild } from "./build.js";
import { removeRunDumps } from "./fresh-db.js";
import { removeRunDataDirs } from "./data-dirs.js";
import { inWorker } from "./run.js";
import { appendFileSync } from "node:fs";

const workerPrefix = (url: URL): string => `${url.pathname.slice(1)}_w`;

/** Drops the worker databases an earlier or this run made from the database named by `databaseUrl`. */
async function dropWorkerDatabases(databaseUrl: string): Promise<void> {
  const prefix = workerPrefix(new URL(databaseUrl)).replace(/[\\_%]/g, "\\$&");
  const { rows } = await admin(databaseUrl, "SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
  for (const { datname } of rows) await admin(databaseUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

if (inWorker && process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  const name = `${workerPrefix(url)}${process.pid}`;
  await admin(url.href, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(url.href, `CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.href;
}

// TEST_TIMINGS=FILE appends one line per test file, its wall time from its first hook to its
// last: how `.mocharc.cjs`'s longest-first order is measured.
let fileStarted = 0;
const timings = process.env.TEST_TIMINGS
  ? {
      beforeAll(): void {
        fileStarted = performance.now();
      },
      afterAll(this: Mocha.Context): void {
        const file = this.test?.parent?.suites[0]?.file ?? "?";
        appendFileSync(process.env.TEST_TIMINGS!, `${((performance.now() - fileStarted) / 1000).toFixed(1)}\t${file}\n`);
      },
    }
  : {};

export const mochaHooks = inWorker
  ? timings
  : {
      async afterAll(): Promise<void> {
        await stopTestServer();
      },
    };

export async function mochaGlobalSetup(): Promise<void> {
  removeRunBuild(process.pid);
  removeRunDumps(process.pid);
  removeRunDataDirs(process.pid);
  if (process.env.DATABASE_URL) await dropWorkerDatabases(process.env.DATABASE_URL);
}

export async function mochaGlobalTeardown(): Promise<void> {
  removeRunBuild(process.pid);
  removeRunDumps(process.pid);
  removeRunDataDirs(process.pid);
  if (process.env.DATABASE_URL) await dropWorkerDatabases(process.env.DATABASE_URL);
}
