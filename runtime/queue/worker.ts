// A queue worker: claims due tasks of the kinds it has handlers for, runs each handler outside
// any transaction while renewing the task's lease, records each attempt's outcome, and
// reschedules a failure with exponential backoff until the task's attempts run out. Any number
// of workers, in one process or many, may share a database: a task is run by one worker at a
// time, and again only when that worker failed, stopped, or died and its lease ran out (so a
// handler must tolerate running twice after a crash: delivery is at least once, not exactly).
import type { Knex } from "knex";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { forget, markSeen, SEEN_EVERY_MS } from "./workers.js";
import { publish } from "../telemetry.js";
import { backoff, claim, finish, onEnqueued, prune, renewLease, type AttemptReport, type ClaimedTask, type Ending } from "./tasks.js";

export interface TaskContext {
  /** The database, outside any transaction: a handler opens its own, short ones. */
  db: Knex;
  task: ClaimedTask;
  /** Aborted when the worker stops or loses the task's lease: stop soon, the attempt will not count as done. */
  signal: AbortSignal;
}

/** Runs one attempt of a task: resolves when it succeeded (with what to record), throws when it failed. */
export type TaskHandler = (payload: unknown, ctx: TaskContext) => Promise<AttemptReport | void>;

/**
 * Work a worker does every poll interval besides its tasks (the jobs' scheduler), on its
 * database: it must be safe with any number of workers doing the same at once.
 */
export type PeriodicTask = (db: Knex) => Promise<void>;

/** A failure a handler reports with its details; `retry: false` gives the task up at once (retrying cannot help). */
export class TaskFailure extends Error {
  readonly statusCode: number | null;
  readonly retry: boolean;
  constructor(message: string, opts: { statusCode?: number | null; retry?: boolean } = {}) {
    super(message);
    this.statusCode = opts.statusCode ?? null;
    this.retry = opts.retry ?? true;
  }
}

export interface WorkerSettings {
  /** Tasks one worker runs at the same time. */
  concurrency: number;
  /** How often an idle worker looks for tasks it was not told about (other instances' enqueues, ended leases). */
  pollMs: number;
  /** How long a claimed task stays the worker's without a renewal; renewed every third of it while the handler runs. */
  leaseMs: number;
  /** Attempts before a failing task is given up, unless the task says otherwise. */
  maxAttempts: number;
  /** The wait after a first failure, doubled after each further one, at most `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Days a task that ended is kept, with its attempts (0: forever). */
  retentionDays: number;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = {
  concurrency: 4,
  pollMs: 2_000,
  leaseMs: 60_000,
  maxAttempts: 10,
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  retentionDays: 30,
};

const PRUNE_EVERY_MS = 3_600_000;

/**
 * How long after a retry's time the worker looks for it: the database dated it by its own clock
 * in microseconds, this process counts whole milliseconds and its timers may fire a little early.
 */
const RETRY_MARGIN_MS = 10;

type Stop = "stopping" | "lost";

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly settings: WorkerSettings;
  private readonly kinds: string[];
  private readonly active = new Map<string, { promise: Promise<void>; controller: AbortController }>();
  private stopping = false;
  private nudged = false;
  private resume?: () => void;
  /** When tasks this worker failed become due again: it looks for them then rather than at the next poll. */
  private retries: number[] = [];
  private lastPrune = 0;
  private lastSeen = 0;
  private loop?: Promise<void>;
  private unsubscribe?: () => void;
  private periodicTimer?: NodeJS.Timeout;
  private periodicRun?: Promise<void>;

  constructor(
    private readonly db: Knex,
    private readonly handlers: Record<string, TaskHandler>,
    settings: Partial<WorkerSettings> = {},
    private readonly onError: (err: unknown) => void = (err) => console.error(`queue worker: ${err instanceof Error ? err.message : String(err)}`),
    private readonly periodic: Record<string, PeriodicTask> = {},
  ) {
    this.settings = { ...DEFAULT_WORKER_SETTINGS, ...settings };
    this.kinds = Object.keys(handlers);
  }

  /** Starts the worker's loop, which claims and runs tasks until stop(). */
  start(): this {
    if (this.loop) return this;
    this.unsubscribe = onEnqueued(() => this.nudge());
    this.loop = this.run();
    if (Object.keys(this.periodic).length) this.schedulePeriodic(0);
    return this;
  }

  /** Runs the periodic tasks after `delayMs`, one after another, then again a poll interval after they end. */
  private schedulePeriodic(delayMs: number): void {
    this.periodicTimer = setTimeout(() => {
      this.periodicRun = (async () => {
        for (const [name, task] of Object.entries(this.periodic)) {
          if (this.stopping) return;
          try {
            await task(this.db);
          } catch (err) {
            this.onError(new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`));
          }
        }
      })().finally(() => {
        if (!this.stopping) this.schedulePeriodic(this.settings.pollMs);
      });
    }, delayMs);
  }

  /**
   * Stops claiming, aborts the handlers running (their tasks are queued again at once, for
   * this or another instance) and resolves once their attempts are recorded: call it before
   * closing the database.
   */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.unsubscribe?.();
    clearTimeout(this.periodicTimer);
    for (const { controller } of this.active.values()) controller.abort("stopping" satisfies Stop);
    this.nudge();
    await this.loop;
    await this.periodicRun;
    await Promise.all([...this.active.values()].map((a) => a.promise));
    await forget(this.db, this.id).catch(this.onError);
  }

  private nudge(): void {
    this.nudged = true;
    this.resume?.();
  }

  /** Waits for a nudge, the next local retry, or the poll interval, whichever comes first. */
  private pause(): Promise<void> {
    if (this.nudged || this.stopping) {
      this.nudged = false;
      return Promise.resolve();
    }
    const now = Date.now();
    const wait = Math.max(0, Math.min(this.settings.pollMs, ...this.retries.map((t) => t - now)));
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.resume = undefined;
        this.nudged = false;
        resolve();
      };
      const timer = setTimeout(done, wait);
      this.resume = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      await this.markSeen().catch(this.onError);
      const free = this.settings.concurrency - this.active.size;
      if (free <= 0) {
        await this.pause();
        continue;
      }
      this.nudged = false;
      let claimed: ClaimedTask[] = [];
      const looked = Date.now();
      try {
        await this.pruneNow();
        claimed = await claim(this.db, { worker: this.id, kinds: this.kinds, limit: free, leaseMs: this.settings.leaseMs });
      } catch (err) {
        this.onError(err);
      }
      // Retries due before this claim began were found by it (if the database's clock agrees,
      // and it did not fail; else the poll finds them).
      this.retries = this.retries.filter((t) => t > looked);
      for (const task of claimed) this.launch(task);
      if (claimed.length < free || this.stopping) await this.pause();
    }
  }

  /** Busy or idle, the loop passes here at least every poll interval, so the mark stays fresh. */
  private async markSeen(): Promise<void> {
    if (Date.now() - this.lastSeen < SEEN_EVERY_MS) return;
    this.lastSeen = Date.now();
    await markSeen(this.db, this.id);
  }

  private async pruneNow(): Promise<void> {
    if (!this.settings.retentionDays || Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await prune(this.db, this.settings.retentionDays);
  }

  private launch(task: ClaimedTask): void {
    const controller = new AbortController();
    if (this.stopping) controller.abort("stopping" satisfies Stop);
    const promise = this.attempt(task, controller).catch(this.onError).finally(() => {
      this.active.delete(task.attemptId);
      this.nudge();
    });
    this.active.set(task.attemptId, { promise, controller });
  }

  private async attempt(task: ClaimedTask, controller: AbortController): Promise<void> {
    const started = process.hrtime.bigint();
    const renewal = setInterval(() => {
      renewLease(this.db, this.id, task, this.settings.leaseMs)
        .then((held) => { if (!held) controller.abort("lost" satisfies Stop); })
        // A renewal that failed is tried again at the next interval; the lease is long enough for a few.
        .catch(this.onError);
    }, Math.max(1, Math.floor(this.settings.leaseMs / 3)));
    let ending: Ending;
    try {
      if (controller.signal.aborted) throw new Error("not started: the worker is stopping");
      const report = await this.handlers[task.kind](task.payload, { db: this.db, task, signal: controller.signal });
      ending = { outcome: "succeeded", report: report ?? {} };
    } catch (err) {
      ending = this.failure(task, err, controller.signal);
    } finally {
      clearInterval(renewal);
    }
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    await finish(this.db, this.id, task, ending, durationMs);
    const final = ending.outcome === "succeeded" || (ending.outcome === "failed" && ending.retryInMs === null);
    publish("queue.attempt", { kind: task.kind, outcome: ending.outcome, final, seconds: durationMs / 1000 });
    if (ending.outcome === "failed" && ending.retryInMs !== null) this.retries.push(Date.now() + ending.retryInMs + RETRY_MARGIN_MS);
  }

  private failure(task: ClaimedTask, err: unknown, signal: AbortSignal): Ending {
    const report: AttemptReport = {
      statusCode: err instanceof TaskFailure ? err.statusCode : null,
      detail: err instanceof Error ? err.message : String(err),
    };
    if (signal.aborted) {
      const why = signal.reason === "lost" ? "the worker lost the task's lease" : "the worker stopped";
      return { outcome: "interrupted", report: { ...report, detail: `Interrupted (${why}): ${report.detail}` } };
    }
    const max = task.maxAttempts ?? this.settings.maxAttempts;
    const retry = !(err instanceof TaskFailure && !err.retry) && task.attempt < max;
    return { outcome: "failed", report, retryInMs: retry ? backoff(task.attempt, this.settings.retryBaseMs, this.settings.retryMaxMs) : null };
  }
}
