// What a load balancer or an orchestrator asks, without credentials. `/health/` (Nautobot's
// path) answers as Nautobot's django-health-check does: 200 while the database answers, 500 at
// once when it does not. `/health/live/` answers 200 while the process serves: liveness, which
// no database trouble changes, as restarting the process would not mend the database.
// `/health/ready/` answers 200 once the database answers and holds every migration this build
// carries, else 503: readiness, for taking an instance out of rotation. Bodies follow
// django-health-check's JSON (a check's name to "working" or what is wrong); they never carry
// the database's own error text. `operatorChecks` adds what an operator asks of a whole install
// (`armature health_check`): a queue worker seen lately, on any machine, and a writable media
// folder; each check is the one function the routes and the command share.
import express, { type Response, type Router } from "express";
import type { Knex } from "knex";
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pendingMigrations, type MigrationSet } from "../db/migrate.js";
import { GONE_AFTER_MS, workersSeen } from "../queue/workers.js";

/** How long readiness waits for the database: a host that drops packets must not hold the probe. */
const ANSWER_WITHIN_MS = 5000;
/** How long the health check waits: an unhealthy answer is wanted at once. */
const HEALTH_WITHIN_MS = 2000;

export type Checks = Record<string, string>;

export function healthRoutes(db: Knex, migrations: MigrationSet[]): Router {
  const router = express.Router();
  router.get("/health/", async (_req, res) => {
    const database = await databaseCheck(db);
    answer(res, database === "working" ? 200 : 500, { database });
  });
  router.get("/health/live/", (_req, res) => answer(res, 200, { process: "working" }));
  router.get("/health/ready/", async (_req, res) => {
    const checks = await readiness(db, migrations);
    answer(res, Object.values(checks).every((v) => v === "working") ? 200 : 503, checks);
  });
  return router;
}

/** "working" when `check` answers within `ms`, else what is wrong: no answer, or the error's code. */
async function bounded(check: () => Promise<unknown>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  try {
    return (await Promise.race([check(), late])) === "late" ? `unavailable (no answer within ${ms / 1000} s)` : "working";
  } catch (err) {
    // A code (ECONNREFUSED, 57P03, 28P01) says enough to act on without showing hosts or names.
    const code = (err as { code?: unknown }).code;
    return `unavailable (${typeof code === "string" ? code : "error"})`;
  } finally {
    clearTimeout(timer);
  }
}

function answer(res: Response, status: number, checks: Checks): void {
  res.status(status).set("Cache-Control", "no-store").json(checks);
}

/** Whether the database answers, at once. */
export function databaseCheck(db: Knex): Promise<string> {
  return bounded(() => db.raw("SELECT 1"), HEALTH_WITHIN_MS);
}

/** The database, and whether it holds every migration of this build. */
export async function readiness(db: Knex, migrations: MigrationSet[]): Promise<Checks> {
  let pending: string[] | undefined;
  const database = await bounded(async () => { pending = (await pendingMigrations(db, migrations)).map(String); }, ANSWER_WITHIN_MS);
  if (database !== "working") return { database, migrations: "unknown" };
  return { database, migrations: pending!.length ? `${pending!.length} pending` : "working" };
}

/** Whether a queue worker (in a server or `armature worker`, on any machine) marked itself seen lately. */
export async function queueWorkerCheck(db: Knex): Promise<string> {
  let seen: string[] = [];
  const database = await bounded(async () => { seen = await workersSeen(db); }, ANSWER_WITHIN_MS);
  if (database !== "working") return "unknown";
  return seen.length ? "working" : `no worker seen in the last ${GONE_AFTER_MS / 1000} s (nothing delivers webhooks or runs jobs)`;
}

/** Whether a file can be written into (and removed from) the media folder. */
export async function mediaCheck(root: string): Promise<string> {
  const probe = join(root, `.health-${randomUUID()}`);
  try {
    await mkdir(root, { recursive: true });
    await writeFile(probe, "");
    await rm(probe);
    return "working";
  } catch (err) {
    return `not writable (${(err as NodeJS.ErrnoException).code ?? "error"}: ${root})`;
  }
}

/** Everything `armature health_check` asks: readiness, a queue worker, the media folder. */
export async function operatorChecks(db: Knex, migrations: MigrationSet[], mediaRoot: string): Promise<Checks> {
  return { ...(await readiness(db, migrations)), "queue worker": await queueWorkerCheck(db), media: await mediaCheck(mediaRoot) };
}
