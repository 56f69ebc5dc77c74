// The real server for end-to-end tests: one per test run (a mocha root hook starts it),
// on an ephemeral port, over a fresh database: in-memory PGlite by default, or a wiped
// schema of the PostgreSQL database named by DATABASE_URL. Gives its URL, an admin token,
// the Knex handle (to assert on database state) and helpers to make more users.
import type { Server } from "node:http";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { AddressInfo } from "node:net";
import type { Knex } from "knex";
import { configFromEnv, type Config } from "../../runtime/config.js";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { createApp } from "../../runtime/server.js";
import { answerClientErrors } from "../../runtime/http/client-errors.js";
import { migrateAll, ensureSuperuser, loadDemoOnce } from "../../runtime/cli.js";
import { syncJobs } from "../../runtime/features/jobs/index.js";
import { migratedEmbeddedDatabase } from "./fresh-db.js";
import { apis } from "../../generated/server.js";
import { demo } from "../../demo/index.js";

/** An object permission given to a test user. */
export interface Grant {
  object_types: string[];
  actions: string[];
  constraints?: unknown;
}

export interface TestServer {
  url: string;
  token: string;
  db: Knex;
  /** "pglite" or "postgresql", for test titles and skips. */
  engine: string;
  /** The folders the server's jobs come from (the shipped ones, then the tests'). */
  jobsRoots: string[];
  /** Creates a user (superuser or not) with a token; gives the token key and user id. */
  /**
   * A user with a token. Besides managing their own tokens, a user who is no superuser may do
   * only what `grants` give (object permissions: object_types, actions, constraints).
   */
  user(username: string, opts?: { superuser?: boolean; writeEnabled?: boolean; expires?: string | null; grants?: Grant[] }): Promise<{ key: string; id: string }>;
}

let current: { server: Server; db: Database; api: TestServer } | undefined;

export async function startTestServer(): Promise<TestServer> {
  if (current) return current.api;
  // Every test comes from 127.0.0.1 and many send bad credentials on purpose: throttling is
  // tested on its own app instances (test/e2e/throttle.test.ts), this one only counts.
  // The shipped jobs, and jobs made for the tests.
  const jobsRoots = [resolve("jobs"), resolve("test/jobs")];
  // Uploads go to a folder of this run's own.
  const mediaRoot = await mkdtemp(join(tmpdir(), "armature-media-"));
  const config = { ...configFromEnv(), dataDir: "memory://", mediaRoot, logRequests: false, authFailureLimit: 1_000_000, jobsRoots };
  // PGlite: the run's migrated cluster, where a new one would run initdb and every migration again.
  const db = config.databaseUrl ? await openDatabase(config) : await migratedEmbeddedDatabase();
  if (config.databaseUrl) {
    await db.knex.raw("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
  }
  await migrateAll(db.knex, apis);
  const synced = await syncJobs(db.knex, apis, jobsRoots);
  const problems = synced.filter((line) => !line.includes("disabled until enabled"));
  if (problems.length) throw new Error(`jobs: ${problems.join("; ")}`);
  const admin = await ensureSuperuser(db.knex, apis, "admin", "admin-password");
  const adminRow = await db.knex("users_user").select("id").where("username", "admin").first();
  await loadDemoOnce(db.knex, apis, demo, adminRow.id);
  const app = createApp(apis, db.knex, { ...config, publicUrl: undefined });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  answerClientErrors(server, config);
  // The embedded database runs on this thread: a long statement of a test (100,000 rows)
  // holds the event loop, and both sides' idle-socket timers then fire together. The server's
  // firing first resets the connection the client's next request was just sent on, so the
  // server keeps idle sockets longer than any hold and the client (undici: the server's hint
  // less a second) always gives them up first.
  server.keepAliveTimeout = 600_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api: TestServer = {
    url,
    token: admin.key,
    db: db.knex,
    engine: config.databaseUrl ? "postgresql" : "pglite",
    jobsRoots,
    async user(username, opts = {}) {
      const res = await fetch(`${url}/api/users/users/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Token ${admin.key}` },
        body: JSON.stringify({ username, password: `${username}-password`, is_superuser: opts.superuser ?? false }),
      });
      if (res.status !== 201) throw new Error(`creating user ${username}: ${res.status} ${await res.text()}`);
      const user = (await res.json()) as { id: string };
      // As an administrator sets a user up: their own tokens, and whatever else the test grants.
      const grants = [{ object_types: ["users.token"], actions: ["view", "add", "change", "delete"], constraints: { user: "$user" } }, ...(opts.grants ?? [])];
      for (const [n, grant] of grants.entries()) {
        const given = await fetch(`${url}/api/users/permissions/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Token ${admin.key}` },
          body: JSON.stringify({ name: `${username} ${n}`, users: [user.id], ...grant }),
        });
        if (given.status !== 201) throw new Error(`granting ${username} ${JSON.stringify(grant)}: ${given.status} ${await given.text()}`);
      }
      const basic = Buffer.from(`${username}:${username}-password`).toString("base64");
      const tok = await fetch(`${url}/api/users/tokens/`, { method: "POST", headers: { Authorization: `Basic ${basic}` } });
      const token = (await tok.json()) as { id: string; key: string };
      if (opts.writeEnabled === false || opts.expires !== undefined) {
        await db.knex("users_token").where("id", token.id).update({
          ...(opts.writeEnabled === false ? { write_enabled: false } : {}),
          ...(opts.expires !== undefined ? { expires: opts.expires } : {}),
        });
      }
      return { key: token.key, id: user.id };
    },
  };
  current = { server, db, api };
  return api;
}

export async function stopTestServer(): Promise<void> {
  if (!current) return;
  const { server, db } = current;
  current = undefined;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.close();
}

/** A server of a test's own, for settings the shared one cannot have (see ownInstance). */
export interface OwnInstance {
  base: string;
  db: Database;
  close(): Promise<void>;
}

/**
 * A server of the test's own on the database of DATABASE_URL, through a database handle of its
 * own opened with `settings` (a pool of one, a short statement timeout…): its URL, that
 * handle, and how to stop both. PostgreSQL only: the embedded engine belongs to the test server.
 */
export async function ownInstance(settings: Partial<Config>): Promise<OwnInstance> {
  const config = { ...configFromEnv(), publicUrl: undefined, logRequests: false, ...settings };
  const db = await openDatabase(config);
  const server: Server = await new Promise((resolve) => {
    const s = createApp(apis, db.knex, config).listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
