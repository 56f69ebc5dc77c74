// What a scrape reads from the database rather than counts: the queue's depth per task kind
// and state, and how long its oldest due task has waited. One statement per scrape, over the
// queue's partial index of live tasks, made only by the process that answers the scrape (its
// figures are the database's, the same whichever worker reads them, so they are not summed).
import type { Knex } from "knex";
import { Gauge, Registry } from "prom-client";

/** How long the queue's statement may take: a scrape must answer even when the database does not. */
const READ_WITHIN_MS = 2000;

interface QueueRow { kind: string; state: string; tasks: number; waited: number | null }

export function scrapeRegistry(db: Knex): Registry {
  const registry = new Registry();
  const registers = [registry];
  let read: Promise<QueueRow[] | null> | undefined;
  // The three gauges share one statement per scrape.
  const rows = () => (read ??= queueRows(db).finally(() => setImmediate(() => (read = undefined))));
  new Gauge({
    name: "armature_database_up", help: "Whether the database answered this scrape's statement (1) or not (0).", registers,
    async collect() {
      this.set((await rows()) ? 1 : 0);
    },
  });
  new Gauge({
    name: "armature_queue_tasks", help: "Queue tasks waiting or running now, by kind and status (queued, running).", labelNames: ["kind", "status"], registers,
    async collect() {
      this.reset();
      for (const r of (await rows()) ?? []) this.set({ kind: r.kind, status: r.state }, r.tasks);
    },
  });
  new Gauge({
    name: "armature_queue_oldest_due_seconds", help: "How long the oldest queued task that is due has waited, by kind (0: none waits).", labelNames: ["kind"], registers,
    async collect() {
      this.reset();
      for (const r of (await rows()) ?? []) if (r.state === "queued") this.set({ kind: r.kind }, r.waited ?? 0);
    },
  });
  return registry;
}

async function queueRows(db: Knex): Promise<QueueRow[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), READ_WITHIN_MS)));
  const query = db.raw(
    `SELECT kind, state, count(*)::int AS tasks,
       extract(epoch FROM now() - min(run_at) FILTER (WHERE state = 'queued' AND run_at <= now()))::float8 AS waited
     FROM armature_tasks WHERE state IN ('queued', 'running') GROUP BY kind, state ORDER BY kind, state`,
  ).then((r: { rows: QueueRow[] }) => r.rows, () => null);
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}
