// The rows jobs live in, through the api's `jobs` role (fields named as Nautobot's Job,
// JobResult and JobLogEntry, columns taken from the descriptors): job records kept in step
// with the jobs folder, results made pending by a run request and carried to an end by a
// worker, and log entries. Writes here are the server's own bookkeeping, as Nautobot's are:
// they leave no change records.
import { randomBytes, randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { advisoryLock } from "../../db/locks.js";
import { slugify } from "../../text/slugs.js";
import { LOCAL_SOURCE, type Catalog, type CatalogEntry } from "./catalog.js";
import { CHANGE_LOG_MODEL } from "./define.js";
import { recordOf, type VariableRecord } from "./variables.js";

type Db = Knex | Knex.Transaction;

/** A condition on the job records aliased `t0` (a permission's, as ActionEvent.permitted gives it). */
type Where = { sql: string; bindings: unknown[] } | null;

/** A job record's fields that the job's source gives unless the record overrides them (Nautobot's JOB_OVERRIDABLE_FIELDS). */
export const OVERRIDABLE = [
  "grouping", "name", "description", "commit_default", "hidden", "read_only", "approval_required", "soft_time_limit", "time_limit",
  "has_sensitive_variables", "task_queues",
] as const;

/** Nautobot's JobResultStatusChoices and its terminal states. */
export type ResultStatus = "pending" | "running" | "completed" | "errored" | "failed";
export const TERMINAL: ResultStatus[] = ["completed", "errored", "failed"];

/** Nautobot's LogLevelChoices. */
export type LogLevel = "default" | "success" | "info" | "warning" | "failure";

/** A job record as the runtime reads it. */
export interface JobRow {
  id: string;
  source: string;
  module_name: string;
  job_class_name: string;
  slug: string;
  name: string;
  grouping: string;
  description: string;
  installed: boolean;
  enabled: boolean;
  commit_default: boolean;
  read_only: boolean;
  approval_required: boolean;
  has_sensitive_variables: boolean;
  /** Run by job hooks (Nautobot's JobHookReceiver), or by job buttons (its JobButtonReceiver). */
  is_job_hook_receiver: boolean;
  is_job_button_receiver: boolean;
  soft_time_limit: number;
  time_limit: number;
  task_queues: string[];
  variables: VariableRecord[];
  /** The source's own values of the overridable fields, as the last sync found them. */
  source_values: Record<string, unknown>;
}

/** Nautobot's source of jobs that Git repositories bring. */
export const GIT_SOURCE = "git";

/**
 * A job's class path, as Nautobot names it: `<source>/<module>/<Class>`, and for a Git
 * repository's job `git.<repository slug>/<module>/<Class>` (its record's module name is
 * `<repository slug>/<module>`, unique across repositories).
 */
export const classPathOf = (j: Pick<JobRow, "source" | "module_name" | "job_class_name">): string =>
  j.source === GIT_SOURCE && j.module_name.includes("/") ? `${GIT_SOURCE}.${j.module_name}/${j.job_class_name}` : `${j.source}/${j.module_name}/${j.job_class_name}`;

/** The source and module name of a class path's job record. */
function recordKeyOf(classPath: string): { source: string; module: string; className: string } {
  const [source, module, className] = classPath.split("/");
  return source.startsWith(`${GIT_SOURCE}.`) ? { source: GIT_SOURCE, module: `${source.slice(GIT_SOURCE.length + 1)}/${module}`, className } : { source, module, className };
}

/** The job records a catalog gives: those of one source, and within it of one module prefix (a Git repository's `<slug>/`). */
export interface CatalogScope { source: string; modulePrefix?: string }

/** A log entry as written: Nautobot's JobResult.log fields. */
export interface LogEntry {
  level: LogLevel;
  grouping: string;
  message: string;
  logObject: string | null;
  absoluteUrl: string | null;
}

/** The last log line id's milliseconds and counter (lineId). */
let lastLine = { ms: 0, counter: 0 };

/**
 * A UUID of version 7 (RFC 9562: milliseconds, then a counter in the 12 bits after the
 * version, then random bits) that sorts after every one this process made before. Lines the
 * database dates alike (PGlite's clock moves by whole milliseconds) keep their order by it.
 */
function lineId(): string {
  const now = Date.now();
  lastLine = now > lastLine.ms ? { ms: now, counter: 0 }
    : lastLine.counter < 0xfff ? { ms: lastLine.ms, counter: lastLine.counter + 1 } : { ms: lastLine.ms + 1, counter: 0 };
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastLine.ms, 0, 6);
  bytes.writeUInt16BE(0x7000 | lastLine.counter, 6);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Nautobot's JOB_LOG_MAX_* limits. */
const MAX_GROUPING = 100;
const MAX_LOG_OBJECT = 200;
const MAX_ABSOLUTE_URL = 255;

/** What the sync did, for the operator. */
export interface SyncReport { created: string[]; refreshed: number; uninstalled: string[]; problems: string[] }

/** The values a job's source gives its record's overridable fields (Nautobot's BaseJob class properties). */
function sourceValues(e: CatalogEntry): Record<string, unknown> {
  const j = e.job;
  return {
    grouping: e.grouping.slice(0, 255),
    name: (j.name ?? e.className).slice(0, 100),
    description: (j.description ?? "").trim(),
    commit_default: j.commitDefault ?? true,
    hidden: j.hidden ?? false,
    read_only: j.readOnly ?? false,
    approval_required: j.approvalRequired ?? false,
    soft_time_limit: j.softTimeLimit ?? 0,
    time_limit: j.timeLimit ?? 0,
    has_sensitive_variables: j.hasSensitiveVariables ?? true,
    task_queues: j.taskQueues ?? [],
  };
}

const JSON_FIELDS = new Set(["task_queues", "variables", "source_values"]);

export class JobRecords {
  readonly jobs: ModelDescriptor;
  readonly results: ModelDescriptor;
  readonly logs: ModelDescriptor;

  constructor(readonly index: ModelIndex) {
    const role = index.api.jobs;
    if (!role) throw new Error(`API ${index.api.name} declares no jobs`);
    this.jobs = index.model(role.jobs);
    this.results = index.model(role.results);
    this.logs = index.model(role.logs);
  }

  /** The column of a role field. */
  c(m: ModelDescriptor, field: string): string {
    return this.index.column(m, field);
  }

  /** Job-record values by field name as a row by column, JSON fields as JSON text. */
  private row(values: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(values).map(([f, v]) => [this.c(this.jobs, f), JSON_FIELDS.has(f) ? JSON.stringify(v) : v]));
  }

  /** The job records as the runtime reads them, from the table aliased `t0`, narrowed by `where` (on `t0`). */
  private selectJobs(db: Db, where?: Where): Knex.QueryBuilder {
    const fields = ["source", "module_name", "job_class_name", "slug", "name", "grouping", "description", "installed", "enabled", "commit_default",
      "read_only", "approval_required", "has_sensitive_variables", "is_job_hook_receiver", "is_job_button_receiver", "soft_time_limit", "time_limit",
      "task_queues", "variables", "source_values"];
    const qb = db(`${this.jobs.table} as t0`).select("t0.id", ...fields.map((f) => `t0.${this.c(this.jobs, f)} as ${f}`));
    if (where) qb.whereRaw(where.sql, where.bindings as Knex.RawBinding[]);
    return qb;
  }

  /** The job record `id`, narrowed by `where` (on the table aliased `t0`), or null. */
  async job(db: Db, id: string, where?: Where): Promise<JobRow | null> {
    return (await this.selectJobs(db, where).where("t0.id", id).first()) ?? null;
  }

  /** The job records, in the model's order, narrowed by `where` (on the table aliased `t0`). */
  list(db: Db, where?: Where): Promise<JobRow[]> {
    return this.selectJobs(db, where).orderBy([this.c(this.jobs, "grouping"), this.c(this.jobs, "name"), "id"].map((c) => `t0.${c}`));
  }

  /** The job record of a class path (`local/<module>/<Class>`), narrowed by `where`, or null. */
  async byClassPath(db: Db, classPath: string, where?: Where): Promise<JobRow | null> {
    const { source, module, className } = recordKeyOf(classPath);
    return (await this.selectJobs(db, where).where(`t0.${this.c(this.jobs, "source")}`, source).where(`t0.${this.c(this.jobs, "module_name")}`, module)
      .where(`t0.${this.c(this.jobs, "job_class_name")}`, className).first()) ?? null;
  }

  /**
   * Brings the job records in step with the catalog, as Nautobot's refresh_job_models: a new
   * job gets a record (disabled, until someone enables it); a known one takes its source's
   * values wherever its record does not override them, and counts as installed; a local job
   * the folder no longer gives is kept, not installed. One transaction, one instance at a time.
   */
  sync(db: Knex, catalog: Catalog): Promise<SyncReport> {
    return db.transaction((trx) => this.refresh(trx, catalog, { source: LOCAL_SOURCE }));
  }

  /** `sync` within `trx`, for the job records of `scope` (a Git repository's sync refreshes its own). */
  async refresh(trx: Knex.Transaction, catalog: Catalog, scope: CatalogScope): Promise<SyncReport> {
    await advisoryLock(trx, this.jobs.table, "sync");
    const report: SyncReport = { created: [], refreshed: 0, uninstalled: [], problems: [...catalog.problems] };
    const known = new Map<string, JobRow & { overrides: Record<string, boolean> }>();
    const overrides = OVERRIDABLE.map((f) => `t0.${this.c(this.jobs, `${f}_override`)} as ${f}_override`);
    const scoped = this.selectJobs(trx).select(overrides).where(`t0.${this.c(this.jobs, "source")}`, scope.source);
    if (scope.modulePrefix) scoped.whereRaw(`left(t0.${this.c(this.jobs, "module_name")}, ?) = ?`, [scope.modulePrefix.length, scope.modulePrefix]);
    for (const r of await scoped) {
      known.set(classPathOf(r), { ...r, overrides: Object.fromEntries(OVERRIDABLE.map((f) => [f, r[`${f}_override`]])) });
    }
    for (const entry of catalog.jobs.values()) {
      const source = sourceValues(entry);
      const variables = Object.entries(entry.job.variables ?? {})
        .map(([name, v]) => recordOf(name, v.model === CHANGE_LOG_MODEL ? { ...v, model: this.index.api.changeLog } : v));
      const receiver = { is_job_hook_receiver: entry.job.receiver === "jobHook", is_job_button_receiver: entry.job.receiver === "jobButton" };
      const existing = known.get(entry.classPath);
      try {
        // One job at a time in a savepoint: a job whose name its grouping already has is reported, the others go on.
        await trx.transaction(async (sp) => {
          if (!existing) {
            await sp(this.jobs.table).insert(this.row({
              source: scope.source, module_name: entry.module, job_class_name: entry.className,
              slug: slugify(`${scope.source}-${entry.module.replaceAll("/", "-")}-${entry.className}`).slice(0, 320),
              installed: true, enabled: false, ...source, ...receiver, source_values: source, variables,
            }));
            report.created.push(entry.classPath);
            return;
          }
          const inherited = Object.fromEntries(OVERRIDABLE.filter((f) => !existing.overrides[f]).map((f) => [f, source[f]]));
          await sp(this.jobs.table).where("id", existing.id)
            .update({ ...this.row({ ...inherited, ...receiver, installed: true, source_values: source, variables }), [this.c(this.jobs, "last_updated")]: sp.fn.now() });
          report.refreshed += 1;
        });
      } catch (err) {
        report.problems.push(`jobs: ${entry.classPath} has no record: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const gone = [...known.values()].filter((r) => r.installed && !catalog.jobs.has(classPathOf(r)));
    if (gone.length) {
      await trx(this.jobs.table).whereIn("id", gone.map((r) => r.id))
        .update({ [this.c(this.jobs, "installed")]: false, [this.c(this.jobs, "last_updated")]: trx.fn.now() });
    }
    report.uninstalled = gone.map(classPathOf);
    return report;
  }

  /** Records a pending result of `job` for `userId`, in `trx`, fired by the schedule `schedule` if any; gives its id. */
  async createResult(trx: Db, job: JobRow, userId: string | null, kwargs: Record<string, unknown> | null, schedule?: string): Promise<string> {
    const r = this.results;
    const id = randomUUID();
    await trx(r.table).insert({
      id,
      [this.c(r, "name")]: classPathOf(job),
      [this.c(r, "job_model")]: job.id,
      [this.c(r, "obj_type")]: this.jobs.key,
      [this.c(r, "status")]: "pending",
      [this.c(r, "user")]: userId,
      [this.c(r, "job_id")]: randomUUID(),
      [this.c(r, "job_kwargs")]: kwargs === null ? null : JSON.stringify(kwargs),
      ...(schedule ? { [this.c(r, "schedule")]: schedule } : {}),
    });
    return id;
  }

  /** Records a pending result of work that is no job's (Nautobot's JobResult.enqueue_job, as a Git repository's sync), about a row of `objType`. */
  async createTaskResult(trx: Db, name: string, objType: string, userId: string | null): Promise<string> {
    const r = this.results;
    const id = randomUUID();
    await trx(r.table).insert({
      id,
      [this.c(r, "name")]: name,
      [this.c(r, "job_model")]: null,
      [this.c(r, "obj_type")]: objType,
      [this.c(r, "status")]: "pending",
      [this.c(r, "user")]: userId,
      [this.c(r, "job_id")]: randomUUID(),
      [this.c(r, "job_kwargs")]: null,
    });
    return id;
  }

  /**
   * Moves a result from one status to another, in one statement that changes it only while it
   * still has the status `from` (of those given): whoever moves it first, wins. Terminal
   * statuses date its completion. Gives whether it moved.
   */
  async move(db: Db, id: string, from: ResultStatus[], to: ResultStatus, data?: Record<string, unknown>): Promise<boolean> {
    const r = this.results;
    const n = await db(r.table).where("id", id).whereIn(this.c(r, "status"), from).update({
      [this.c(r, "status")]: to,
      // The moment it ends, not its transaction's start (which now() gives).
      ...(TERMINAL.includes(to) ? { [this.c(r, "completed")]: db.raw("clock_timestamp()") } : {}),
      ...(data !== undefined ? { [this.c(r, "data")]: JSON.stringify(data) } : {}),
    });
    return n > 0;
  }

  /** A result's job record id, user and status. */
  async result(db: Db, id: string): Promise<{ job: string | null; user: string | null; status: ResultStatus; name: string } | null> {
    const r = this.results;
    const row = await db(r.table).where("id", id)
      .first(`${this.c(r, "job_model")} as job`, `${this.c(r, "user")} as user`, `${this.c(r, "status")} as status`, `${this.c(r, "name")} as name`);
    return row ?? null;
  }

  /**
   * A log entry of a result, truncated as Nautobot truncates them, dated by the database's
   * clock and given an id that sorts after those of the lines this process wrote before it
   * (`lineId`): both log routes order by time, then id.
   */
  logRow(db: Db, resultId: string, e: LogEntry): Record<string, unknown> {
    const l = this.logs;
    return {
      id: lineId(),
      [this.c(l, "job_result")]: resultId,
      [this.c(l, "log_level")]: e.level,
      [this.c(l, "grouping")]: e.grouping.slice(0, MAX_GROUPING),
      [this.c(l, "message")]: e.message,
      [this.c(l, "created")]: db.raw("clock_timestamp()"),
      [this.c(l, "log_object")]: e.logObject?.slice(0, MAX_LOG_OBJECT) ?? null,
      [this.c(l, "absolute_url")]: e.absoluteUrl?.slice(0, MAX_ABSOLUTE_URL) ?? null,
    };
  }
}
