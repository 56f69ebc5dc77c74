// Scheduled jobs (the jobs role's `schedules`, fields as Nautobot's ScheduledJob): a run set
// for a time, for every hour, day or week from a start, for a crontab, or awaiting approval.
// Their state lives in their rows only: `next_run_at` is when one fires next (null once it has
// nothing more to fire). The scheduler (`fireDue`) claims the due ones with FOR UPDATE SKIP
// LOCKED, so any number of schedulers on any number of machines share the rows, and in the
// same transaction records each one's pending result, queues its run and moves `next_run_at`
// past the time it fired for: a due time fires once, whoever claims it.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../descriptor.js";
import type { Engine } from "../../engine.js";
import type { Actor } from "../../operations/index.js";
import { enqueue } from "../../queue/tasks.js";
import { ident } from "../../query/sql.js";
import { nextFiring, parseCrontab, type Crontab } from "./crontab.js";
import { JobRecords, classPathOf, type JobRow } from "./records.js";
import { JOB_TASK, type JobTask } from "./runs.js";

type Db = Knex | Knex.Transaction;

/** Nautobot's JobExecutionType values. */
export type Interval = "immediately" | "future" | "hourly" | "daily" | "weekly" | "custom";
export const INTERVALS: Interval[] = ["immediately", "future", "hourly", "daily", "weekly", "custom"];

/** Nautobot's task name of the scheduled job handler, which every job schedule names. */
export const SCHEDULED_JOB_TASK = "nautobot.extras.jobs.scheduled_job_handler";

/** What a schedule runs: Nautobot's ScheduledJob.kwargs as this server keeps them. */
export interface ScheduleKwargs {
  data: Record<string, unknown>;
  commit: boolean;
  user: string | null;
  name: string;
  task_queue: string | null;
  celery_kwargs: { queue: string };
  scheduled_job_pk: string;
}

/** A schedule as the scheduler reads it. */
export interface ScheduleRow {
  id: string;
  job_model: string | null;
  user: string | null;
  interval: Interval;
  crontab: string;
  start_time: Date;
  one_off: boolean;
  next_run_at: Date | null;
  kwargs: ScheduleKwargs;
}

/** The crontab a recurring schedule fires by (Nautobot's ScheduledJob.to_cron, in UTC); null for a one-off. */
export function crontabOf(interval: Interval, start: Date, crontab: string): Crontab | null {
  const all = (from: number, n: number) => new Set(Array.from({ length: n }, (_, i) => from + i));
  const base = { minute: new Set([start.getUTCMinutes()]), hour: all(0, 24), dayOfWeek: all(0, 7), dayOfMonth: all(1, 31), monthOfYear: all(1, 12) };
  switch (interval) {
    case "hourly": return base;
    case "daily": return { ...base, hour: new Set([start.getUTCHours()]) };
    case "weekly": return { ...base, hour: new Set([start.getUTCHours()]), dayOfWeek: new Set([start.getUTCDay()]) };
    case "custom": return parseCrontab(crontab);
    default: return null;
  }
}

/**
 * When a schedule first fires: a one-off at its start; a recurring one at its crontab's first
 * minute from its start's (so an hourly schedule from 10:15:30 fires first at 10:15:30, as
 * Nautobot's, which sets the last run an interval before the start), not before the start.
 */
export function firstRun(interval: Interval, start: Date, crontab: string): Date | null {
  const cron = crontabOf(interval, start, crontab);
  if (!cron) return start;
  const at = nextFiring(cron, new Date(Math.floor(start.getTime() / 60_000) * 60_000));
  return at && (at < start ? start : at);
}

/** When a schedule that fired for `due` at `now` fires next: its crontab's first minute after both; null for a one-off. */
export function nextRun(s: Pick<ScheduleRow, "interval" | "start_time" | "crontab">, due: Date, now: Date): Date | null {
  const cron = crontabOf(s.interval, s.start_time, s.crontab);
  return cron && nextFiring(cron, new Date(Math.max(due.getTime(), now.getTime()) + 1));
}

export class Schedules {
  readonly records: JobRecords;
  readonly model: ModelDescriptor;

  constructor(readonly engine: Engine) {
    this.records = new JobRecords(engine.index);
    const key = engine.index.api.jobs?.schedules;
    if (!key) throw new Error(`API ${engine.api.name} declares no job schedules`);
    this.model = engine.index.model(key);
  }

  c(field: string): string {
    return this.engine.index.column(this.model, field);
  }

  /**
   * Removes the schedules of one run (`future`) due more than `maxAgeDays` ago, as Nautobot's
   * `remove_stale_scheduled_jobs`, through the store (change-logged, cascading) as `actor`.
   * Gives how many.
   */
  async removeStale(actor: Actor, maxAgeDays: number): Promise<number> {
    return this.engine.operations.run(actor, async (op) => {
      const ids = (await op.trx(this.model.table).where(this.c("interval"), "future")
        .whereRaw(`${ident(this.c("start_time"))} < now() - make_interval(days => ?)`, [maxAgeDays]).orderBy("id").pluck("id")).map(String);
      if (ids.length) await this.engine.store.remove(op, this.model, ids);
      return ids.length;
    });
  }

  /**
   * Records a schedule of `job` for `actor`, as Nautobot's `_create_schedule`: named (or, run
   * at once after approval, named after the job and the time), waiting for approval when the
   * job needs it. Gives its id.
   */
  create(actor: Actor, job: JobRow, s: { interval: Interval; name: string | null; start: Date; crontab: string; data: Record<string, unknown>; commit: boolean; queue: string; taskQueue: string | null }): Promise<string> {
    const id = randomUUID();
    const name = s.name ?? `${job.name} - ${pyDateTime(s.start)}`;
    const kwargs: ScheduleKwargs = {
      data: s.data, commit: s.commit, user: actor.userId, name: classPathOf(job), task_queue: s.taskQueue, celery_kwargs: { queue: s.queue }, scheduled_job_pk: id,
    };
    return this.engine.operations.run(actor, async ({ trx }) => {
      await trx(this.model.table).insert({
        id,
        [this.c("name")]: name,
        [this.c("task")]: SCHEDULED_JOB_TASK,
        [this.c("job_class")]: classPathOf(job),
        [this.c("job_model")]: job.id,
        [this.c("start_time")]: s.start,
        [this.c("description")]: `Nautobot job ${name} scheduled by ${actor.username} on ${pyDateTime(s.start)}`,
        [this.c("kwargs")]: JSON.stringify(kwargs),
        [this.c("interval")]: s.interval,
        [this.c("one_off")]: s.interval === "future",
        [this.c("user")]: actor.userId,
        [this.c("approval_required")]: job.approval_required,
        [this.c("crontab")]: s.crontab,
        [this.c("queue")]: s.taskQueue || null,
        [this.c("next_run_at")]: firstRun(s.interval, s.start, s.crontab),
      });
      return id;
    });
  }

  /** A schedule as the scheduler reads it, or null. */
  async get(db: Db, id: string): Promise<ScheduleRow | null> {
    return (await this.select(db).where("t0.id", id).first()) ?? null;
  }

  private select(db: Db): Knex.QueryBuilder {
    const fields = ["job_model", "user", "interval", "crontab", "start_time", "one_off", "next_run_at", "kwargs"];
    return db(`${this.model.table} as t0`).select("t0.id", ...fields.map((f) => `t0.${this.c(f)} as ${f}`));
  }

  /** Marks a schedule approved by `userId` now. */
  async approve(db: Db, id: string, userId: string, now: Date): Promise<void> {
    await db(this.model.table).where("id", id).update({ [this.c("approved_by_user")]: userId, [this.c("approved_at")]: now, [this.c("date_changed")]: now });
  }

  /**
   * Fires the schedules due at `now` (enabled, approved when they need it), at most `limit`,
   * in one transaction: each gets a pending result linked to it and a queued run, as its
   * requester; its run count and last run move on, and its next run goes past this one (a
   * one-off is then done). Rows another scheduler holds are skipped, not waited for. Gives
   * how many fired, and the results made (none for a schedule whose job is gone).
   */
  fireDue(db: Knex, now: Date, limit = 100): Promise<{ fired: number; results: string[] }> {
    return db.transaction(async (trx) => {
      const due: ScheduleRow[] = await this.select(trx)
        .where(`t0.${this.c("enabled")}`, true)
        .whereNotNull(`t0.${this.c("next_run_at")}`)
        .where(`t0.${this.c("next_run_at")}`, "<=", now)
        .where((q) => q.where(`t0.${this.c("approval_required")}`, false).orWhereNotNull(`t0.${this.c("approved_at")}`))
        .orderBy([`t0.${this.c("next_run_at")}`, "t0.id"]).limit(limit)
        .forUpdate().skipLocked();
      const results: string[] = [];
      const ids = [...new Set(due.map((s) => s.job_model).filter((id): id is string => id !== null))];
      const jobs = new Map(ids.length ? (await this.records.list(trx, { sql: "t0.id = ANY(?::uuid[])", bindings: [ids] })).map((j) => [j.id, j]) : []);
      for (const s of due) {
        const job = s.job_model ? jobs.get(s.job_model) : undefined;
        if (job) {
          const kwargs = job.has_sensitive_variables ? null : { data: s.kwargs.data, commit: s.kwargs.commit, task_queue: s.kwargs.task_queue };
          const result = await this.records.createResult(trx, job, s.user, kwargs, s.id);
          await enqueue(trx, JOB_TASK, { api: this.engine.api.name, result, data: s.kwargs.data, commit: s.kwargs.commit } satisfies JobTask);
          results.push(result);
        }
        const next = nextRun(s, s.next_run_at!, now);
        await trx(this.model.table).where("id", s.id).update({
          [this.c("last_run_at")]: now,
          [this.c("total_run_count")]: trx.raw("?? + 1", [this.c("total_run_count")]),
          [this.c("next_run_at")]: next,
          ...(next === null ? { [this.c("enabled")]: false } : {}),
        });
      }
      return { fired: due.length, results };
    });
  }
}

/** A time as Python's str() of an aware datetime writes it (`2024-05-01 10:15:00.123000+00:00`), as Nautobot names and describes schedules. */
export function pyDateTime(d: Date): string {
  const iso = d.toISOString();
  const micros = d.getUTCMilliseconds() ? `.${iso.slice(20, 23)}000` : "";
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${micros}+00:00`;
}
