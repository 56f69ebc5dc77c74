// A run request as Nautobot's `_run_job` takes one: the job must be enabled and installed,
// the body is a JobInputSerializer's (`data`, `commit`, `schedule` as its
// NestedScheduledJobSerializer checks it, `task_queue`), the data must suit the job's
// variables (job-data.ts); then the run is queued, or scheduled (to run later, on a schedule,
// or once approved). Refusals carry Nautobot's words and statuses.
import {
  type Engine, type Actor, type Operation, HttpError, ValidationError, type FieldErrors, FilterCompiler, CrontabError, parseCrontab, queueRun, Schedules,
  type Interval, type JobRow,
} from "../../../runtime/hooks.js";
import { JobDataError, validateData, type ObjectLookup } from "./job-data.js";

/** Nautobot's CELERY_TASK_DEFAULT_QUEUE: the queue of a job that names none. */
const DEFAULT_QUEUE = "default";

/** Nautobot's JobExecutionType values. */
const INTERVALS = ["immediately", "future", "hourly", "daily", "weekly", "custom"];

/** How far ahead a scheduled start must be (Nautobot's ScheduledJob.earliest_possible_time). */
const EARLIEST_MS = 15_000;
/** When a custom schedule given no start begins, from now (Nautobot's `_create_schedule`). */
const CUSTOM_START_MS = 20_000;

/** A schedule as NestedScheduledJobSerializer gives it once valid. */
interface ScheduleInput { interval: Interval; name?: string; start?: Date; crontab?: string }

/**
 * Django's parse_datetime (DRF's ISO 8601 input), a time without a zone read as UTC (Nautobot's
 * TIME_ZONE); null when it is no date and time.
 */
function parseDateTime(text: string): Date | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? 0));
  const micro = m[7] ? Number(m[7].padEnd(6, "0")) : 0;
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || mi > 59 || s > 59) return null;
  let offset = 0;
  if (m[8] && m[8] !== "Z") {
    const sign = m[8][0] === "-" ? -1 : 1;
    const digits = m[8].slice(1).replace(":", "");
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(micro / 1000)) - offset * 60_000);
}

/** A CharField's value: a string or number as text, else its refusal. */
function charField(value: unknown, opts: { blank: boolean; maxLength: number }): { value: string } | { error: FieldErrors[string] } {
  if (value === null) return { error: [{ code: "null" }] };
  if (typeof value !== "string" && typeof value !== "number") return { error: [{ code: "invalid_string" }] };
  const text = String(value).trim();
  if (!text && !opts.blank) return { error: [{ code: "blank" }] };
  if (text.length > opts.maxLength) return { error: [{ code: "max_length", limit: opts.maxLength }] };
  return { value: text };
}

/** The `schedule` of a run's body, as NestedScheduledJobSerializer checks it: its fields, then their combination. */
function readSchedule(raw: unknown): { schedule: ScheduleInput } | { errors: FieldErrors } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { errors: { non_field_errors: [{ code: "not_an_object", given: raw }] } };
  const s = raw as Record<string, unknown>;
  const errors: FieldErrors = {};
  const out: Partial<ScheduleInput> = {};
  if (s.name !== undefined) {
    const r = charField(s.name, { blank: false, maxLength: 255 });
    if ("error" in r) errors.name = r.error;
    else out.name = r.value;
  }
  if (s.start_time !== undefined) {
    const at = typeof s.start_time === "string" ? parseDateTime(s.start_time) : null;
    if (s.start_time === null) errors.start_time = [{ code: "null" }];
    else if (!at) errors.start_time = [{ code: "invalid_datetime_format" }];
    else out.start = at;
  }
  if (s.interval === undefined) errors.interval = [{ code: "required" }];
  else if (typeof s.interval !== "string" || !INTERVALS.includes(s.interval)) errors.interval = [{ code: "invalid_choice", value: s.interval, plain: true }];
  else out.interval = s.interval as Interval;
  if (s.crontab !== undefined) {
    const r = charField(s.crontab, { blank: true, maxLength: 255 });
    if ("error" in r) errors.crontab = r.error;
    else out.crontab = r.value;
  }
  if (Object.keys(errors).length) return { errors };
  const schedule = out as ScheduleInput;
  if (schedule.interval !== "immediately") {
    if (schedule.name === undefined) return { errors: { name: ["Please provide a name for the job schedule."] } };
    if ((schedule.start === undefined && schedule.interval !== "custom") || (schedule.start !== undefined && schedule.start.getTime() < Date.now() + EARLIEST_MS)) {
      return { errors: { start_time: ["Please enter a valid date and time greater than or equal to the current date and time."] } };
    }
    if (schedule.interval === "custom") {
      if (schedule.crontab === undefined) return { errors: { crontab: ["Please enter a valid crontab."] } };
      try {
        parseCrontab(schedule.crontab);
      } catch (err) {
        if (err instanceof CrontabError) return { errors: { crontab: [err.message] } };
        throw err;
      }
    }
  }
  return { schedule };
}

/** DRF's BooleanField: what it reads as true and as false. */
const TRUE = new Set([true, 1, "1", "true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"]);
const FALSE = new Set([false, 0, "0", "false", "False", "FALSE", "f", "F", "no", "No", "NO", "n", "N", "off", "Off", "OFF"]);

interface RunInput { data: unknown; commit: boolean | null; schedule: ScheduleInput | null; taskQueue: string | undefined }

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
  let schedule: ScheduleInput | null = null;
  if (b.schedule === null) errors.schedule = [{ code: "null" }];
  else if (b.schedule !== undefined) {
    const read = readSchedule(b.schedule);
    if ("errors" in read) errors.schedule = read.errors;
    else schedule = read.schedule;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { data: b.data === undefined ? {} : b.data, commit, schedule, taskQueue };
}

/**
 * Objects named by a run's object variable: by id or attributes, among those the requester may
 * view that meet the variable's filters. The ids are checked in one statement (the store's
 * lookups batch them), then the filters and the permission in one more.
 */
function objectLookup(engine: Engine, op: Operation): ObjectLookup {
  const filters = new FilterCompiler(engine.index);
  return async (key, values, params) => {
    const m = engine.index.byKey.get(key);
    const compiled = m && filters.compile(m, new Map(Object.entries(params ?? {}).map(([k, v]) => [k, [v].flat().map(String)])), { strict: true, reserved: new Set() });
    if (!m || !compiled || Object.keys(compiled.errors).length) return values.map(() => null);
    const { plan } = compiled;
    const ids = await Promise.all(values.map((v) => engine.store.idOf(op, key, v as Record<string, unknown>).catch(() => null)));
    const found = new Set(await engine.store.existing(op, m, ids.filter((id): id is string => id !== null), { where: plan.apply }));
    return ids.map((id) => (id !== null && found.has(id) ? id : null));
  };
}

/**
 * Checks a run request of `job` and, when it may run, queues it with its pending result
 * (`queueRun`) as `actor`, the requester, already allowed to run the job: gives the result's
 * id; or, given a schedule other than `immediately` or for a job that needs approval, records
 * the scheduled job instead: gives its id. Throws what Nautobot answers otherwise, in its
 * order: not enabled (403), not installed (405), sensitive variables with a schedule or
 * approval (400), a bad body, schedule or queue (400), data the variables refuse (400
 * `{"errors": …}`).
 */
export async function requestRun(engine: Engine, actor: Actor, job: JobRow, body: unknown): Promise<{ result: string } | { schedule: string }> {
  if (!job.enabled) throw new HttpError(403, "This job is not enabled to be run.", "forbidden");
  if (!job.installed) throw new HttpError(405, "This job is not presently installed and cannot be run", "method_not_allowed");
  const raw = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (job.has_sensitive_variables) {
    const interval = typeof raw.schedule === "object" && raw.schedule !== null ? (raw.schedule as Record<string, unknown>).interval : undefined;
    // Python's truth: an empty object or list is no schedule.
    const given = typeof raw.schedule === "object" && raw.schedule !== null ? Object.keys(raw.schedule).length > 0 : !!raw.schedule;
    if (given && interval !== "immediately") {
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
    data = await validateData(job.variables, input.data, objectLookup(engine, await engine.operations.read(actor)));
  } catch (err) {
    if (err instanceof JobDataError) throw new ValidationError({ errors: err.errors });
    throw err;
  }
  // A job that needs approval waits for it even when asked to run at once.
  const schedule = input.schedule ?? (job.approval_required ? { interval: "immediately" as const } : null);
  if (schedule && (schedule.interval !== "immediately" || job.approval_required)) {
    const now = Date.now();
    const start = schedule.interval === "immediately" ? new Date(now) : schedule.start ?? new Date(now + CUSTOM_START_MS);
    const id = await new Schedules(engine).create(actor, job, {
      interval: schedule.interval, name: schedule.interval === "immediately" ? schedule.name ?? null : schedule.name!, start,
      crontab: schedule.crontab ?? "", data, commit, queue, taskQueue: input.taskQueue ?? null,
    });
    return { schedule: id };
  }
  const kwargs = job.has_sensitive_variables ? null : { data, commit, task_queue: input.taskQueue ?? null };
  return { result: await queueRun(engine, actor, job, { data, commit, kwargs }) };
}
