// Which queue workers are running: each marks itself seen when it starts and then every
// SEEN_EVERY_MS while it runs, and removes its mark when it stops, in `armature_queue_workers`
// (a runtime migration's). What the health check asks; the queue's work does not depend on it.
import type { Knex } from "knex";

const TABLE = "armature_queue_workers";

/** How often a running worker marks itself seen. */
export const SEEN_EVERY_MS = 15_000;
/** A worker not seen for this long is taken for gone: four marks missed. */
export const GONE_AFTER_MS = 4 * SEEN_EVERY_MS;

export async function markSeen(db: Knex, worker: string): Promise<void> {
  await db.raw(`INSERT INTO ${TABLE} (id) VALUES (?) ON CONFLICT (id) DO UPDATE SET seen = now()`, [worker]);
  // Marks left by workers that died without stopping: gone for a day, forgotten.
  await db.raw(`DELETE FROM ${TABLE} WHERE seen < now() - interval '1 day'`);
}

export async function forget(db: Knex, worker: string): Promise<void> {
  await db(TABLE).where("id", worker).delete();
}

/** The workers seen within GONE_AFTER_MS, by id. */
export async function workersSeen(db: Knex): Promise<string[]> {
  const rows = await db(TABLE).select("id").whereRaw(`seen > now() - ? * interval '1 millisecond'`, [GONE_AFTER_MS]).orderBy("id");
  return rows.map((r: { id: string }) => r.id);
}
