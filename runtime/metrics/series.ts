// The series this process counts, in one prom-client registry: requests, the database's
// statements, errors and pool, queue attempts and task outcomes, webhook deliveries, job runs,
// change records, and prom-client's process metrics. Counted in process from what the server
// publishes (runtime/telemetry.ts) and from Knex's own events: counting adds no statement.
// Made once per process; what a scrape must read from the database is scrape.ts's.
import type { Knex } from "knex";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { subscribe } from "../telemetry.js";
import { readRouting } from "../db/replicas.js";

/** Seconds: from a fast detail read to a slow bulk write or export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Bytes: an empty body to a large upload or export. */
const SIZE_BUCKETS = [0, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];
/** Seconds: a webhook delivery to a long job. */
const TASK_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800];

export type RequestLabels = Record<"api" | "route" | "method" | "status", string>;

/** The process's series, and what it was told. */
export class ProcessSeries {
  readonly registry = new Registry();
  /**
   * The databases whose pools a scrape reads, held weakly: a process that makes apps and closes
   * them again (the tests, a reload) would otherwise keep every one it ever watched alive.
   */
  private readonly databases = new Set<WeakRef<Knex>>();
  private readonly watched = new WeakSet<Knex>();
  private readonly requests: Counter;
  private readonly duration: Histogram;
  private readonly requestSize: Histogram;
  private readonly responseSize: Histogram;
  private readonly inFlight: Gauge;
  private readonly statements: Counter;
  private readonly dbErrors: Counter;

  constructor() {
    const registers = [this.registry];
    const databases = this.databases;
    new Gauge({ name: "armature_processes", help: "Server processes whose series these are (summed across workers).", registers }).set(1);
    this.requests = new Counter({ name: "armature_http_requests_total", help: "Requests answered, by API, route template, method and status.", labelNames: ["api", "route", "method", "status"], registers });
    this.duration = new Histogram({ name: "armature_http_request_duration_seconds", help: "Time from a request's arrival to the end of its answer.", labelNames: ["api", "route", "method", "status"], buckets: LATENCY_BUCKETS, registers });
    this.requestSize = new Histogram({ name: "armature_http_request_size_bytes", help: "Request body sizes.", labelNames: ["api", "route", "method"], buckets: SIZE_BUCKETS, registers });
    this.responseSize = new Histogram({ name: "armature_http_response_size_bytes", help: "Response body sizes, as sent.", labelNames: ["api", "route", "method"], buckets: SIZE_BUCKETS, registers });
    this.inFlight = new Gauge({ name: "armature_http_requests_in_flight", help: "Requests being answered now.", registers });
    this.statements = new Counter({ name: "armature_db_statements_total", help: "SQL statements sent to the database.", registers });
    this.dbErrors = new Counter({ name: "armature_db_errors_total", help: "Statements the database (or the connection to it) failed, by SQLSTATE or error code.", labelNames: ["code"], registers });
    const pool = (name: string, help: string, read: (p: PoolState) => number) => new Gauge({
      name, help, registers,
      collect() {
        let sum = 0;
        for (const ref of databases) {
          const db = ref.deref();
          // The pools its reads are routed to (STATEMENT_TIMEOUT's, the replicas') are its too.
          if (db) for (const pool of [db, ...(readRouting(db)?.pools() ?? [])]) sum += read(poolState(pool));
          else databases.delete(ref);
        }
        this.set(sum);
      },
    });
    pool("armature_db_pool_in_use", "Database connections lent to a request or task now (reads' and replicas' pools included).", (p) => p.inUse);
    pool("armature_db_pool_waiting", "Requests and tasks waiting for a database connection now (reads' and replicas' pools included).", (p) => p.waiting);
    pool("armature_db_pool_max", "Database connections the pools may hold at most (reads' and replicas' pools included).", (p) => p.max);
    this.countFeatures(registers);
    collectDefaultMetrics({ register: this.registry });
  }

  private countFeatures(registers: Registry[]): void {
    const attempts = new Counter({ name: "armature_queue_attempts_total", help: "Queue task attempts this server's workers ended, by task kind and outcome.", labelNames: ["kind", "outcome"], registers });
    const ended = new Counter({ name: "armature_queue_tasks_ended_total", help: "Queue tasks that ended for good, by kind and final status (succeeded, or failed once its attempts ran out).", labelNames: ["kind", "status"], registers });
    const taskSeconds = new Histogram({ name: "armature_queue_attempt_duration_seconds", help: "How long queue task attempts ran, by kind.", labelNames: ["kind"], buckets: TASK_BUCKETS, registers });
    const deliveries = new Counter({ name: "armature_webhook_deliveries_total", help: "Webhook delivery attempts, by result.", labelNames: ["result"], registers });
    const started = new Counter({ name: "armature_jobs_started_total", help: "Job runs started, by job (module path and class).", labelNames: ["job"], registers });
    const finished = new Counter({ name: "armature_jobs_finished_total", help: "Job runs ended, by job and result status (completed, failed, errored).", labelNames: ["job", "status"], registers });
    const failed = new Counter({ name: "armature_jobs_failed_total", help: "Job runs that ended failed or errored, by job.", labelNames: ["job"], registers });
    const changes = new Counter({ name: "armature_change_records_total", help: "Change records committed, by API and action.", labelNames: ["api", "action"], registers });
    subscribe("queue.attempt", ({ kind, outcome, final, seconds }) => {
      attempts.inc({ kind, outcome });
      taskSeconds.observe({ kind }, seconds);
      if (final) ended.inc({ kind, status: outcome === "succeeded" ? "succeeded" : "failed" });
    });
    subscribe("webhooks.delivery", ({ result }) => deliveries.inc({ result }));
    subscribe("jobs.run", (run) => {
      if (run.phase === "started") return started.inc({ job: run.job });
      finished.inc({ job: run.job, status: run.status });
      if (run.status !== "completed") failed.inc({ job: run.job });
    });
    subscribe("changes.recorded", ({ api, action, count }) => changes.inc({ api, action }, count));
  }

  /** Counts `db`'s statements and errors from now on, and reads its pool at each scrape. */
  watch(db: Knex): void {
    if (this.watched.has(db)) return;
    this.watched.add(db);
    this.databases.add(new WeakRef(db));
    db.on("query", () => this.statements.inc());
    db.on("query-error", (err: unknown) => this.dbErrors.inc({ code: errorCode(err) }));
  }

  started(): void {
    this.inFlight.inc();
  }

  /** One answered request: its labels, its time in seconds, and its body sizes. */
  answered(labels: RequestLabels, seconds: number, received: number, sent: number): void {
    this.inFlight.dec();
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
    const { api, route, method } = labels;
    this.requestSize.observe({ api, route, method }, received);
    this.responseSize.observe({ api, route, method }, sent);
  }
}

interface PoolState { inUse: number; waiting: number; max: number }

/** What Knex's pool holds now: its own (tarn), or the driver pool it was given (the embedded engine's pg.Pool). */
function poolState(db: Knex): PoolState {
  const client = db.client as { pool?: TarnLike; config?: { connectionPool?: PgPoolLike } };
  const tarn = client.pool;
  if (tarn && typeof tarn.numUsed === "function") return { inUse: tarn.numUsed(), waiting: tarn.numPendingAcquires(), max: tarn.max };
  const native = client.config?.connectionPool;
  if (native) return { inUse: native.totalCount - native.idleCount, waiting: native.waitingCount, max: native.options?.max ?? 1 };
  return { inUse: 0, waiting: 0, max: 0 };
}

interface TarnLike { numUsed(): number; numPendingAcquires(): number; max: number }
interface PgPoolLike { totalCount: number; idleCount: number; waitingCount: number; options?: { max?: number } }

/** A SQLSTATE (`23505`) or a connection error's code (`ECONNREFUSED`); `other` when there is none. */
function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Z0-9_]{1,32}$/.test(code) ? code : "other";
}

let series: ProcessSeries | undefined;

/** This process's series, made at the first call. */
export function processSeries(): ProcessSeries {
  return (series ??= new ProcessSeries());
}
