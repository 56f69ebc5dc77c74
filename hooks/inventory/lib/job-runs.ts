// A run request as Nautobot's `_run_job` takes one: the job must be enabled and installed,
// the body is a JobInputSerializer's (`data`, `commit`, `schedule`, `task_queue`), the data
// must suit the job's variables (job-data.ts); then the run is queued. Refusals carry
// Nautobot's words and statuses.
import type { Knex } from "knex";
import type { Engine } from "../../../runtime/engine.js";
import type { Actor } from "../../../runtime/operations/index.js";
import { HttpError, ValidationError, type FieldErrors } from "../../../runtime/errors.js";
import { FilterCompiler } from "../../../runtime/query/filters.js";
import { queueRun, type JobRow } from "../../../runtime/features/jobs/index.js";
import { JobDataError, validateData, type ObjectLookup } from "./job-data.js";

/** Nautobot's CELERY_TASK_DEFAULT_QUEUE: the queue of a job that names none. */
const DEFAULT_QUEUE = "default";

/** Nautobot's JobExecutionType values, and the one that runs at once. */
const INTERVALS = ["immediately", "future", "hourly", "daily", "weekly", "custom"];

/** DRF's BooleanField: what it reads as true and as false. */
const TRUE = new Set([true, 1, "1", "true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"]);
const FALSE = new Set([false, 0, "0", "false", "False", "FALSE", "f", "F", "no", "No", "NO", "n", "N", "off", "Off", "OFF"]);

interface RunInput { data: unknown; commit: boolean | null; schedule: Record<string, unknown> | null; taskQueue: string | undefined }

/** The body as Nautobot's JobInputSerializer reads it, or its field-keyed refusal. */
function readBody(body: unknown): RunInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError({ non_field_errors: [{ code: "not_an_object", given: body }] });
  }
  const b = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  let commit: boolean | null = null;
  if (b.commit !== undefined && b.commit !== null) {
    if (TRUE.has(b.commit as never)) commit = true;
    else if (FALSE.has(b.commit as never)) commit = false;
    else errors.commit = [{ code: "invalid_boolean" }];
  }
  let taskQueue: string | undefined;
  if (b.task_queue !== undefined) {
    if (typeof b.task_queue === "string" || typeof b.task_queue === "number") taskQueue = String(b.task_queue).trim();
    else errors.task_queue = [b.task_queue === null ? { code: "null" } : { code: "invalid_string" }];
  }
  let schedule: Record<string, unknown> | null = null;
  if (b.schedule !== undefined && b.schedule !== null) {
    if (typeof b.schedule !== "object" || Array.isArray(b.schedule)) {
      errors.schedule = { non_field_errors: [{ code: "not_an_object", given: b.schedule }] };
    } else {
      schedule = b.schedule as Record<string, unknown>;
      const interval = schedule.interval;
      if (interval === undefined) errors.schedule = { interval: [{ code: "required" }] };
      else if (typeof interval !== "string" || !INTERVALS.includes(interval)) errors.schedule = { interval: [{ code: "invalid_choice", value: interval, plain: true }] };
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { data: b.data === undefined ? {} : b.data, commit, schedule, taskQueue };
}

/**
 * Objects named by a run's object variable: by id or attributes, among those the requester may
 * view that meet the variable's filters. The ids are checked in one statement (the store's
 * lookups batch them), then the filters and the permission in one more.
 */
function objectLookup(engine: Engine, db: Knex, actor: Actor): ObjectLookup {
  const filters = new FilterCompiler(engine.index);
  return async (key, values, params) => {
    const m = engine.index.byKey.get(key);
    const compiled = m && filters.compile(m, new Map(Object.entries(params ?? {}).map(([k, v]) => [k, [v].flat().map(String)])), { strict: true, reserved: new Set() });
    if (!m || !compiled || Object.keys(compiled.errors).length) return values.map(() => null);
    const { plan } = compiled;
    const ids = await Promise.all(values.map((v) => engine.store.idOf(db, key, v as Record<string, unknown>).catch(() => null)));
    const grants = actor.grants;
    const allowed = engine.permissions && grants ? engine.permissions.condition(grants, m, "view", "t0") : null;
    const found = new Set(await engine.store.existing(db, m, ids.filter((id): id is string => id !== null), actor.userId ?? undefined, (qb) => {
      plan.apply(qb);
      if (allowed) qb.whereRaw(allowed.sql, allowed.bindings as Knex.RawBinding[]);
    }));
    return ids.map((id) => (id !== null && found.has(id) ? id : null));
  };
}

/**
 * Checks a run request of `job` and, when it may run, queues it with its pending result
 * (`queueRun`) as `actor`, the requester, already allowed to run the job: gives the result's
 * id. Throws what Nautobot answers otherwise, in its order: not enabled (403), not installed
 * (405), sensitive variables with a schedule or approval (400), a bad body or queue (400),
 * data the variables refuse (400 `{"errors": …}`). Scheduled runs and runs awaiting approval
 * are not served (405).
 */
export async function requestRun(engine: Engine, actor: Actor, job: JobRow, body: unknown): Promise<string> {
  if (!job.enabled) throw new HttpError(403, "This job is not enabled to be run.", "forbidden");
  if (!job.installed) throw new HttpError(405, "This job is not presently installed and cannot be run", "method_not_allowed");
  const raw = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (job.has_sensitive_variables) {
    const interval = typeof raw.schedule === "object" && raw.schedule !== null ? (raw.schedule as Record<string, unknown>).interval : undefined;
    if (raw.schedule && interval !== "immediately") {
      throw new ValidationError({ schedule: { interval: ["Unable to schedule job: Job may have sensitive input variables"] } });
    }
    if (job.approval_required) {
      // DRF's ValidationError of a bare message: the body is a list of it.
      throw new ValidationError(["Unable to run or schedule job: This job is flagged as possibly having sensitive variables but is also flagged as requiring approval.One of these two flags must be removed before this job can be scheduled or run."] as unknown as FieldErrors[]);
    }
  }
  const input = readBody(body);
  const commit = input.commit ?? job.commit_default;
  const queues = job.task_queues.length ? job.task_queues : [DEFAULT_QUEUE];
  const queue = input.taskQueue ?? queues[0];
  if (!queues.includes(queue)) throw new ValidationError({ task_queue: [{ code: "invalid_choice", value: queue, plain: true }] });
  let data: Record<string, unknown>;
  try {
    data = await validateData(job.variables, input.data, objectLookup(engine, engine.db, actor));
  } catch (err) {
    if (err instanceof JobDataError) throw new ValidationError({ errors: err.errors });
    throw err;
  }
  if (job.approval_required || (input.schedule && input.schedule.interval !== "immediately")) {
    throw new HttpError(405, "This job needs a schedule (to run later, or once approved), and this server does not serve scheduled jobs.", "method_not_allowed");
  }
  const kwargs = job.has_sensitive_variables ? null : { data, commit, task_queue: input.taskQueue ?? null };
  return queueRun(engine, actor, job, { data, commit, kwargs });
}
