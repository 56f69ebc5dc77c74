// Applies migrations in order, each in its own transaction, recording what ran in
// `armature_migrations`. Takes the migration lists of every API; applies only what is
// missing and never edits a migration that already ran.
import type { Knex } from "knex";

export interface MigrationSet {
  /** The API the migrations belong to. */
  api: string;
  migrations: Array<{ name: string; sql: string }>;
}

export async function migrate(db: Knex, sets: MigrationSet[]): Promise<string[]> {
  await db.raw(`CREATE TABLE IF NOT EXISTS armature_migrations (
    api text NOT NULL, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (api, name))`);
  const done = new Set((await db("armature_migrations").select("api", "name")).map((r: { api: string; name: string }) => `${r.api}/${r.name}`));
  const applied: string[] = [];
  for (const set of sets) {
    for (const m of set.migrations) {
      if (done.has(`${set.api}/${m.name}`)) continue;
      await db.transaction(async (trx) => {
        await trx.raw(m.sql);
        await trx("armature_migrations").insert({ api: set.api, name: m.name });
      });
      applied.push(`${set.api}/${m.name}`);
    }
  }
  return applied;
}
