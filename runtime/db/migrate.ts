// Applies migrations in order, recording what ran in `armature_migrations`. Takes the
// migration lists of every API; applies only what is missing and never edits a migration
// that already ran. Instances starting together take turns under an advisory lock: the
// first applies everything pending in one transaction (all or nothing), the others then
// find nothing to do. `pendingMigrations` says what is missing without applying anything.
// A migration whose header names the migrations it replaces (`-- Replaces: <api>/<name>`) counts
// as applied where all of those are, as Django's `replaces`: an app's first migration takes over
// what the API's own stream did for it before the app had a stream of its own.
import type { Knex } from "knex";
import { advisoryLock } from "./locks.js";
import { REPLACES } from "../descriptor.js";

/** The `<api>/<name>`s a migration's header says it replaces. */
export function replacedBy(sql: string): string[] {
  const end = sql.indexOf("\n\n");
  const header = end < 0 ? sql : sql.slice(0, end);
  return header.split("\n").filter((l) => l.startsWith(REPLACES)).map((l) => l.slice(REPLACES.length).trim());
}

/** Whether `done` (`<api>/<name>`s) holds migration `m` of `api`, or everything it replaces. */
export function isApplied(done: Set<string>, api: string, m: { name: string; sql: string }): boolean {
  if (done.has(`${api}/${m.name}`)) return true;
  const replaced = replacedBy(m.sql);
  return replaced.length > 0 && replaced.every((r) => done.has(r));
}

export interface MigrationSet {
  /** The API the migrations belong to. */
  api: string;
  migrations: Array<{ name: string; sql: string }>;
}

export function migrate(db: Knex, sets: MigrationSet[]): Promise<string[]> {
  return db.transaction(async (trx) => {
    // Before the CREATE TABLE: two of those racing on an empty database collide too.
    await advisoryLock(trx, "armature_migrations", "migrate");
    await trx.raw(`CREATE TABLE IF NOT EXISTS armature_migrations (
      api text NOT NULL, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (api, name))`);
    const done = new Set((await trx("armature_migrations").select("api", "name")).map((r: { api: string; name: string }) => `${r.api}/${r.name}`));
    const applied: string[] = [];
    for (const set of sets) {
      for (const m of set.migrations) {
        const name = `${set.api}/${m.name}`;
        if (done.has(name)) continue;
        if (isApplied(done, set.api, m)) {
          // What it does was done by the migrations it replaces: it is recorded, not run.
          await trx("armature_migrations").insert({ api: set.api, name: m.name });
          done.add(name);
          continue;
        }
        try {
          await trx.raw(m.sql);
        } catch (err) {
          throw new Error(`migration ${name} failed, nothing was migrated: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }
        await trx("armature_migrations").insert({ api: set.api, name: m.name });
        done.add(name);
        applied.push(name);
      }
    }
    return applied;
  });
}

/** The migrations of `sets` the database has not applied (all of them on a database never migrated). */
export async function pendingMigrations(db: Knex, sets: MigrationSet[]): Promise<string[]> {
  const recorded = await db("armature_migrations").select("api", "name").catch((err: { code?: string }) => {
    // undefined_table: no migration ever ran here.
    if (err.code === "42P01") return [];
    throw err;
  });
  const done = new Set(recorded.map((r: { api: string; name: string }) => `${r.api}/${r.name}`));
  return sets.flatMap((set) => set.migrations.filter((m) => !isApplied(done, set.api, m)).map((m) => `${set.api}/${m.name}`));
}
