// The queue handler that runs a job (Nautobot's run_job): it takes the job's pending result to
// `running` (one statement: of two attempts, one wins), finds the job's record and code and
// the user who ran it, then runs the job in one operation of that user's, with the job's
// result as its request id: the job's writes in a savepoint, rolled back for a dry run or a
// failure, and the result's end in the same transaction, so a result says `completed` exactly
// when the writes are kept. A result found `running` belongs to a worker that died (the queue
// gives a task again only once its lease ran out): nothing that worker's run wrote was kept,
// so the job runs again, from the start, up to RUNS_PER_RESULT times; should the worker that
// seemed dead still finish, the result's end decides which of the two runs is kept (one
// statement moves it from `running` once).
import type { Knex } from "knex";
import type { ApiDescriptor } from "../../descriptor.js";
import type { Engine } from "../../engine.js";
import { ValidationError } from "../../errors.js";
import { Operations, SYSTEM_NAME, type Actor, type WriteOperation } from "../../operations/index.js";
import { TaskFailure, type TaskContext, type TaskHandler } from "../../queue/worker.js";
import { publish } from "../../telemetry.js";
import type { CatalogEntry } from "./catalog.js";
import { entryOf } from "./sources.js";
import { RUN_GROUPING, RunContext } from "./context.js";
import { withinLimits } from "./limits.js";
import { RunLog, type LogMode } from "./logs.js";
import { classPathOf, JobRecords, type JobRow, type ResultStatus } from "./records.js";
import type { JobTask } from "./runs.js";

/** Nautobot's grouping of what is logged before a job's own code runs. */
const INITIALIZATION = "initialization";

/** Runs of one result at most: a job whose worker died this often may be what takes them down. */
const RUNS_PER_RESULT = 3;

export interface JobRunnerOptions {
  /** The APIs whose jobs it runs, each through its engine on the worker's database. */
  apis: ApiDescriptor[];
  engineOf(api: ApiDescriptor): Engine;
  /** The jobs folders. */
  roots: string[];
  /** How log lines are stored (logs.ts): `inTransaction` on a database of one connection. */
  logs: LogMode;
}

/** Thrown through the job's savepoint to roll back a dry run that went well. */
const DRY_RUN = Symbol("dry run");

/** How Nautobot shows an exception in a log line: its type and message, then its trace. */
function exceptionText(err: unknown): string {
  const e = err instanceof Error ? err : new Error(String(err));
  const message = e instanceof ValidationError ? JSON.stringify(e.errors) : e.message;
  return `\`${e.name}: ${message}\`\n\`\`\`\n${e.stack ?? `${e.name}: ${message}`}\n\`\`\``;
}

/** What a run gave, as Nautobot keeps it: `"\n"` and its text, after an empty output. */
function outputOf(returned: unknown): string {
  if (returned === undefined || returned === null || returned === "") return "";
  return `\n${typeof returned === "string" ? returned : JSON.stringify(returned)}`;
}

/** The handler of the queue's job tasks. */
export function jobHandler(opts: JobRunnerOptions): TaskHandler {
  return async (payload, task) => {
    const run = payload as JobTask;
    const api = opts.apis.find((a) => a.name === run.api && a.jobs);
    if (!api) throw new TaskFailure(`no API ${run.api} with jobs here`, { retry: false });
    return new JobRun(opts.engineOf(api), run, opts, task).go();
  };
}

/** One attempt at one run. */
class JobRun {
  private readonly records: JobRecords;
  private readonly log: RunLog;
  /** The job's class path, once its code began to run: its end is then told (runtime/telemetry.ts). */
  private running?: string;

  constructor(private readonly engine: Engine, private readonly run: JobTask, private readonly opts: JobRunnerOptions, private readonly task: TaskContext) {
    this.records = new JobRecords(engine.index);
    this.log = new RunLog(this.records, run.result, opts.logs, task.db);
  }

  private get db(): Knex {
    return this.task.db;
  }

  async go(): Promise<{ detail: string }> {
    if (!(await this.records.move(this.db, this.run.result, ["pending"], "running"))) {
      const left = await this.alreadyTaken();
      if (left) return { detail: left };
    }
    try {
      return { detail: await this.execute() };
    } catch (err) {
      // The run could not be carried to its end (the database failed it): its writes were rolled back.
      await this.end("errored", `An exception occurred: ${exceptionText(err)}`);
      if (this.running) publish("jobs.run", { job: this.running, phase: "ended", status: "errored" });
      return { detail: `errored: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /**
   * A result not pending: ended already (nothing to do), or left running by a worker that died,
   * which this worker runs again (undefined) unless it has been run too often.
   */
  private async alreadyTaken(): Promise<string | undefined> {
    const found = await this.records.result(this.db, this.run.result);
    if (found?.status !== "running") return "already ended";
    if (this.task.task.attempt > RUNS_PER_RESULT) {
      const ended = await this.end("errored", `The worker running this job stopped before the job ended (its lease on the task ran out), ${RUNS_PER_RESULT} times. Nothing the job wrote was kept; it was not run again.`);
      return ended ? "errored: its workers died while running it" : "already ended";
    }
    await this.db(this.records.logs.table).insert(this.records.logRow(this.db, this.run.result, {
      level: "warning", grouping: INITIALIZATION, logObject: null, absoluteUrl: null,
      message: "The worker running this job stopped before the job ended (its lease on the task ran out). Nothing it wrote was kept; the job runs again.",
    }));
    return undefined;
  }

  /** Ends a result still `running` with a failure line; false when it had ended already. */
  private end(status: ResultStatus, message: string, grouping = INITIALIZATION): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if (!(await this.records.move(trx, this.run.result, ["running"], status, { output: "" }))) return false;
      await trx(this.records.logs.table).insert(this.records.logRow(trx, this.run.result, { level: "failure", grouping, message, logObject: null, absoluteUrl: null }));
      return true;
    });
  }

  private async execute(): Promise<string> {
    const result = await this.records.result(this.db, this.run.result);
    const job = result?.job ? await this.records.job(this.db, result.job) : null;
    if (!result || !job) return this.refuse(`Unable to locate Job database record for "${result?.name ?? this.run.result}" to run it!`);
    if (!job.enabled) return this.refuse(`Job ${job.name} is not enabled to be run!`);
    const entry = job.installed ? await entryOf(this.db, job, this.opts.roots) : undefined;
    if (!entry) return this.refuse(`Unable to locate job "${classPathOf(job)}" to run it!`);
    const actor = result.user ? await this.actorOf(result.user, job) : this.run.system ? this.systemActor(job) : null;
    if (!actor) return this.refuse("The user who ran this job no longer exists, or is no longer active.");
    const commit = job.read_only ? false : this.run.commit;
    this.running = classPathOf(job);
    publish("jobs.run", { job: this.running, phase: "started" });
    // Once: a transaction PostgreSQL aborts (a deadlock) ends the run errored rather than running the job again.
    const status = await this.engine.operations.run(actor, (op) => this.inTransaction(op, job, entry, commit), { attempts: 1 });
    publish("jobs.run", { job: this.running, phase: "ended", status });
    return `${classPathOf(job)}: ${status}`;
  }

  private async refuse(message: string): Promise<string> {
    await this.end("errored", message);
    return `errored: ${message}`;
  }

  /** The user who ran the job, as the actor of its operation: their permissions, the job's result as request id. */
  private async actorOf(userId: string, job: JobRow): Promise<Actor | null> {
    const { index, permissions } = this.engine;
    const users = index.model(index.api.auth!.users);
    const user = await this.db(users.table).where("id", userId)
      .first(`${index.column(users, "username")} as username`, `${index.column(users, "is_superuser")} as superuser`, `${index.column(users, "is_active")} as active`);
    if (!user?.active) return null;
    return {
      // A hook receiver's changes are recorded as a job hook's, and run no job hooks themselves.
      userId, username: user.username, requestId: this.run.result, context: job.is_job_hook_receiver ? "job-hook" : "job", contextDetail: job.slug,
      superuser: user.superuser,
      ...(permissions ? { grants: await permissions.grants(this.db, userId, user.superuser) } : {}),
    };
  }

  /** The system as the actor of a hook run of its own change: every permission, no user. */
  private systemActor(job: JobRow): Actor {
    return { ...Operations.system(job.slug), requestId: this.run.result, context: job.is_job_hook_receiver ? "job-hook" : "job" };
  }

  /**
   * The job's data as `run` takes it: objects in full, read as the user may see them, but a
   * hook receiver's object change whatever they may see, as Nautobot gives it (one read a variable).
   */
  private async data(ctx: RunContext, job: JobRow): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const v of job.variables) {
      const value = this.run.data[v.name];
      const ids: string[] | undefined = v.type === "ObjectVar" && typeof value === "string" ? [value]
        : v.type === "MultiObjectVar" && Array.isArray(value) ? value : undefined;
      if (!ids) {
        out[v.name] = value ?? null;
        continue;
      }
      const found = new Map((await ctx.objects(v.model!, ids, job.is_job_hook_receiver)).map((o) => [String(o.id), o]));
      const gone = ids.find((id) => !found.has(id));
      if (gone !== undefined) throw new Error(`${v.model} ${gone} (variable ${v.name}) no longer exists`);
      out[v.name] = v.type === "ObjectVar" ? found.get(ids[0]) : ids.map((id) => found.get(id));
    }
    return out;
  }

  /** The run inside the operation's transaction: gives how it ended, written in the same transaction. */
  private async inTransaction(op: WriteOperation, job: JobRow, entry: CatalogEntry, commit: boolean): Promise<ResultStatus> {
    const { operations } = this.engine;
    const { trx, actor } = op;
    this.log.target = trx;
    const user = { id: actor.userId, username: actor.username ?? SYSTEM_NAME };
    let status: ResultStatus = "completed";
    let output = "";
    let data: Record<string, unknown> | undefined;
    try {
      data = await this.data(new RunContext(this.engine, op, this.log, this.task.signal, this.run.result, user, commit), job);
    } catch (err) {
      status = "errored";
      await this.log.write("failure", INITIALIZATION, `Error initializing job:\n${exceptionText(err)}`);
    }
    if (data) {
      try {
        await operations.savepoint(op, async (sp) => {
          this.log.enter(sp.trx);
          const ctx = new RunContext(this.engine, sp, this.log, this.task.signal, this.run.result, user, commit);
          output = outputOf(await withinLimits(Promise.resolve(entry.job.run(data as never, ctx)), job, (err, once) => ctx.expire(err, once)));
          await this.log.settled();
          status = ctx.failed ? "failed" : "completed";
          if (!commit) throw DRY_RUN;
        });
        await this.log.leave(trx, true);
      } catch (err) {
        await this.log.leave(trx, false);
        if (err !== DRY_RUN) {
          status = "errored";
          await this.log.write("failure", RUN_GROUPING, `An exception occurred: ${exceptionText(err)}`);
        }
        if (!job.read_only) {
          await this.log.write("info", RUN_GROUPING, err === DRY_RUN ? "Database changes have been reverted automatically." : "Database changes have been reverted due to error.");
        }
      }
    }
    // Another worker ended it meanwhile (this one's lease ran out): nothing of this run is kept.
    if (!(await this.records.move(trx, this.run.result, ["running"], status, { output }))) throw new Error("the job's result was ended by another worker");
    return status;
  }
}
