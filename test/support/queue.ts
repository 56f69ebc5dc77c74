// Databases for the queue's tests, apart from the shared test server's: PostgreSQL (a pool of
// its own per call, as another server instance would have) when DATABASE_URL is set, else one
// in-memory PGlite per test file (test/support/fresh-db.ts); the runtime's migrations applied,
// nothing wiped. Tests keep to task kinds of their own, so they neither see nor take each
// other's tasks.
import type { Knex } from "knex";
import { randomUUID } from "node:crypto";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { migrate } from "../../runtime/db/migrate.js";
import { runtimeMigrations } from "../../runtime/db/runtime-migrations.js";
import { freshEmbeddedDatabase } from "./fresh-db.js";

export const engine = process.env.DATABASE_URL ? "postgresql" : "pglite";

/** A database with the runtime's tables; on PGlite, `shareWith` gives the other handle of the same (one-process) database. */
export async function queueDatabase(shareWith?: Database): Promise<Database> {
  if (shareWith?.embedded) return { ...shareWith, close: async () => undefined };
  const db = process.env.DATABASE_URL ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory://", poolSize: 5 }) : await freshEmbeddedDatabase();
  await migrate(db.knex, [runtimeMigrations]);
  return db;
}

/** A task kind no other test uses. */
export const kind = (what: string): string => `test:${what}:${randomUUID().slice(0, 8)}`;

/** Resolves once `check` gives a truthy value (polled), and rejects with `what` if it takes more than `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface AttemptRow { attempt: number; outcome: string; status_code: number | null; detail: string | null; worker: string }

export async function attemptsOf(db: Knex, taskId: string): Promise<AttemptRow[]> {
  return db("armature_task_attempts").where("task_id", taskId).orderBy("attempt").orderBy("id").select("attempt", "outcome", "status_code", "detail", "worker");
}

export async function tasksOf(db: Knex, k: string): Promise<Array<{ id: string; state: string; attempts: number; last_error: string | null; payload: any }>> {
  return db("armature_tasks").where("kind", k).orderBy("armature_tasks.id").select(db.raw("id::text AS id"), "state", "attempts", "last_error", "payload");
}

/** Removes the tests' tasks (PostgreSQL keeps them otherwise). */
export async function removeTestTasks(db: Knex): Promise<void> {
  await db("armature_tasks").where("kind", "like", "test:%").del();
}
