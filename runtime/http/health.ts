// What a load balancer or an orchestrator asks, without credentials. `/health/` (Nautobot's
// path) answers 200 while the process serves: liveness, which no database trouble changes, as
// restarting the process would not mend the database. `/health/ready/` answers 200 once the
// database answers and holds every migration this build carries, else 503: readiness, for
// taking an instance out of rotation. Bodies follow django-health-check's JSON (a check's name
// to "working" or what is wrong); they never carry the database's own error text.
import express, { type Response, type Router } from "express";
import type { Knex } from "knex";
import { pendingMigrations, type MigrationSet } from "../db/migrate.js";

/** How long readiness waits for the database: a host that drops packets must not hold the probe. */
const ANSWER_WITHIN_MS = 5000;

type Checks = Record<string, string>;

export function healthRoutes(db: Knex, migrations: MigrationSet[]): Router {
  const router = express.Router();
  router.get("/health/", (_req, res) => answer(res, 200, { process: "working" }));
  router.get("/health/ready/", async (_req, res) => {
    const checks = await readiness(db, migrations);
    answer(res, Object.values(checks).every((v) => v === "working") ? 200 : 503, checks);
  });
  return router;
}

function answer(res: Response, status: number, checks: Checks): void {
  res.status(status).set("Cache-Control", "no-store").json(checks);
}

async function readiness(db: Knex, migrations: MigrationSet[]): Promise<Checks> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ANSWER_WITHIN_MS)));
  try {
    const pending = await Promise.race([pendingMigrations(db, migrations), late]);
    if (pending === "late") return { database: `unavailable (no answer within ${ANSWER_WITHIN_MS / 1000} s)`, migrations: "unknown" };
    return { database: "working", migrations: pending.length ? `${pending.length} pending` : "working" };
  } catch (err) {
    // A code (ECONNREFUSED, 57P03, 28P01) says enough to act on without showing hosts or names.
    const code = (err as { code?: unknown }).code;
    return { database: `unavailable (${typeof code === "string" ? code : "error"})`, migrations: "unknown" };
  } finally {
    clearTimeout(timer);
  }
}
