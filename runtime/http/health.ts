// What a load balancer or an orchestrator asks, without credentials. `/health/` (Nautobot's
// path) answers as Nautobot's django-health-check does: 200 while the database answers, 500 at
// once when it does not. `/health/live/` answers 200 while the process serves: liveness, which
// no database trouble changes, as restarting the process would not mend the database.
// `/health/ready/` answers 200 once the database answers and holds every migration this build
// carries, else 503: readiness, for taking an instance out of rotation. Bodies follow
// django-health-check's JSON (a check's name to "working" or what is wrong); they never carry
// the database's own error text.
import express, { type Response, type Router } from "express";
import type { Knex } from "knex";
import { pendingMigrations, type MigrationSet } from "../db/migrate.js";

/** How long readiness waits for the database: a host that drops packets must not hold the probe. */
const ANSWER_WITHIN_MS = 5000;
/** How long the health check waits: an unhealthy answer is wanted at once. */
const HEALTH_WITHIN_MS = 2000;

type Checks = Record<string, string>;

export function healthRoutes(db: Knex, migrations: MigrationSet[]): Router {
  const router = express.Router();
  router.get("/health/", async (_req, res) => {
    const database = await bounded(() => db.raw("SELECT 1"), HEALTH_WITHIN_MS);
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

async function readiness(db: Knex, migrations: MigrationSet[]): Promise<Checks> {
  let pending: string[] | undefined;
  const database = await bounded(async () => { pending = (await pendingMigrations(db, migrations)).map(String); }, ANSWER_WITHIN_MS);
  if (database !== "working") return { database, migrations: "unknown" };
  return { database, migrations: pending!.length ? `${pending!.length} pending` : "working" };
}
