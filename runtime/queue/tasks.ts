// The queue's statements over its two tables (armature_tasks, armature_task_attempts; migration
// 0004_queue): enqueue in the caller's transaction, claim due tasks under a lease, renew a
// lease, record how an attempt ended. Each is one statement, so none holds a lock beyond
// itself. The worker loop that uses them is runtime/queue/worker.ts.
import type { Knex } from "knex";

type Db = Knex | Knex.Transaction;

export interface TaskInput {
  /** Which handler runs it (`webhook`, `job`, …). */
  kind: string;
  /** Any JSON value: the handler's input, stored as is. */
  payload: unknown;
  /** Not before this time (default: at once). */
  runAt?: Date;
  /** Attempts before the task is given up (default: the worker's setting). */
  maxAttempts?: number;
}

/** A task a worker holds: its lease runs until the worker finishes, renews or dies. */
export interface ClaimedTask {
  id: string;
  kind: string;
  payload: unknown;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number | null;
  /** The row of this attempt in armature_task_attempts. */
  attemptId: string;
}

/** How an attempt ended: `statusCode` and `detail` are stored with it for operators to read. */
export interface AttemptReport {
  statusCode?: number | null;
  detail?: string | null;
}

/** Longest detail or error text stored with an attempt. */
const MAX_DETAIL = 2000;

const clip = (text: string | null | undefined): string | null => (text == null ? null : text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text);

// Workers of this process waiting for work; told when a transaction that enqueued commits.
const wakers = new Set<() => void>();

/** Calls `wake` after every commit that enqueued something in this process, until the returned function is called. */
export function onEnqueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

interface TransactionChain { executionPromise?: Promise<unknown>; parentTransaction?: TransactionChain; isTransaction?: boolean }

/** Runs `fn` once `db`'s outermost transaction has ended (at once outside a transaction). */
function afterOutermost(db: Db, fn: () => void): void {
  let t = db as unknown as TransactionChain;
  if (!t.isTransaction) return fn();
  while (t.parentTransaction) t = t.parentTransaction;
  // A rollback wakes the workers for nothing; they find no work and wait again.
  t.executionPromise?.then(fn, fn);
}

/**
 * Adds tasks in `db`'s transaction, in one statement whatever their number: they exist only
 * if that transaction commits, and workers of this process are woken when it does.
 */
export async function enqueueMany(db: Db, tasks: TaskInput[]): Promise<void> {
  if (!tasks.length) return;
  await db.raw(
    `INSERT INTO armature_tasks (kind, payload, run_at, max_attempts) ` +
    `SELECT t.kind, t.payload::jsonb, coalesce(t.run_at, now()), t.max_attempts FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::integer[]) AS t(kind, payload, run_at, max_attempts)`,
    [
      tasks.map((t) => t.kind),
      tasks.map((t) => JSON.stringify(t.payload ?? null)),
      tasks.map((t) => t.runAt?.toISOString() ?? null),
      tasks.map((t) => t.maxAttempts ?? null),
    ] as Knex.RawBinding[],
  );
  afterOutermost(db, () => { for (const wake of wakers) wake(); });
}

/** Adds one task in `db`'s transaction (see enqueueMany). */
export function enqueue(db: Db, kind: string, payload: unknown, opts: { runAt?: Date; maxAttempts?: number } = {}): Promise<void> {
  return enqueueMany(db, [{ kind, payload, ...opts }]);
}

/**
 * Takes up to `limit` due tasks of `kinds` for `worker`, for `leaseMs`: queued ones whose
 * time has come, and running ones whose lease ended (their worker died; that attempt is
 * marked abandoned). One statement: rows other workers are claiming are skipped, never
 * waited for, and once it commits the rows are out of every other claim's reach until the
 * lease ends.
 */
export async function claim(db: Db, opts: { worker: string; kinds: string[]; limit: number; leaseMs: number }): Promise<ClaimedTask[]> {
  if (opts.limit <= 0 || !opts.kinds.length) return [];
  const { rows } = await db.raw(
    `WITH due AS (
       SELECT id FROM armature_tasks
       WHERE state IN ('queued', 'running') AND run_at <= now() AND kind = ANY(?::text[])
       ORDER BY run_at, id LIMIT ? FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE armature_tasks t SET state = 'running', attempts = t.attempts + 1, claimed_by = ?,
         claimed_until = now() + ? * interval '1 millisecond', run_at = now() + ? * interval '1 millisecond', updated = now()
       FROM due WHERE t.id = due.id
       RETURNING t.id, t.kind, t.payload, t.attempts, t.max_attempts
     ), abandoned AS (
       UPDATE armature_task_attempts a SET outcome = 'abandoned', finished = now(),
         detail = 'The worker stopped answering before the attempt ended (its lease expired).'
       FROM claimed WHERE a.task_id = claimed.id AND a.outcome = 'running'
     ), started AS (
       INSERT INTO armature_task_attempts (task_id, attempt, worker) SELECT id, attempts, ? FROM claimed RETURNING id, task_id
     )
     SELECT c.id::text AS id, c.kind, c.payload, c.attempts AS attempt, c.max_attempts, s.id::text AS attempt_id
     FROM claimed c JOIN started s ON s.task_id = c.id ORDER BY c.id`,
    [opts.kinds, opts.limit, opts.worker, opts.leaseMs, opts.leaseMs, opts.worker],
  );
  return (rows as Array<{ id: string; kind: string; payload: unknown; attempt: number; max_attempts: number | null; attempt_id: string }>).map((r) => ({
    id: r.id, kind: r.kind, payload: r.payload, attempt: r.attempt, maxAttempts: r.max_attempts, attemptId: r.attempt_id,
  }));
}

/** The condition that `task` is still this worker's: a reclaim after a lost lease changes both. */
const OWNED = "id = ? AND claimed_by = ? AND attempts = ? AND state = 'running'";

/** Extends the lease of a task the worker holds; false when it is no longer the worker's. */
export async function renewLease(db: Db, worker: string, task: ClaimedTask, leaseMs: number): Promise<boolean> {
  const n = await db.raw(
    `UPDATE armature_tasks SET claimed_until = now() + ? * interval '1 millisecond', run_at = now() + ? * interval '1 millisecond' WHERE ${OWNED}`,
    [leaseMs, leaseMs, task.id, worker, task.attempt],
  );
  return (n.rowCount ?? 0) > 0;
}

/**
 * How the attempt ended, and what becomes of the task: `succeeded`; `failed` and `retryInMs`
 * (queued again then) or not (given up); `interrupted` (its worker stopped: queued again at
 * once). The attempt's row is completed in any case; the task's only while the worker still
 * holds it.
 */
export type Ending =
  | { outcome: "succeeded"; report: AttemptReport }
  | { outcome: "failed"; report: AttemptReport; retryInMs: number | null }
  | { outcome: "interrupted"; report: AttemptReport };

export async function finish(db: Db, worker: string, task: ClaimedTask, ending: Ending, durationMs: number): Promise<void> {
  const detail = clip(ending.report.detail);
  const task_ =
    ending.outcome === "succeeded" ? { state: "succeeded", delay: null, error: null }
    : ending.outcome === "interrupted" ? { state: "queued", delay: 0, error: detail }
    : ending.retryInMs === null ? { state: "failed", delay: null, error: detail }
    : { state: "queued", delay: ending.retryInMs, error: detail };
  await db.raw(
    `WITH t AS (
       UPDATE armature_tasks SET state = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL, updated = now(),
         run_at = CASE WHEN ?::float8 IS NULL THEN run_at ELSE now() + ?::float8 * interval '1 millisecond' END,
         finished = CASE WHEN ? IN ('succeeded', 'failed') THEN now() END
       WHERE ${OWNED}
     )
     UPDATE armature_task_attempts SET outcome = ?, finished = now(), duration_ms = ?, status_code = ?, detail = ? WHERE id = ?`,
    [task_.state, task_.error, task_.delay, task_.delay, task_.state, task.id, worker, task.attempt,
      ending.outcome, Math.round(durationMs), ending.report.statusCode ?? null, detail, task.attemptId],
  );
}

/** Deletes tasks that ended (succeeded or failed) more than `days` ago, with their attempts. */
export async function prune(db: Db, days: number): Promise<number> {
  const n = await db.raw(`DELETE FROM armature_tasks WHERE finished < now() - ? * interval '1 day'`, [days]);
  return n.rowCount ?? 0;
}

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` failed: `baseMs` doubled per
 * attempt, at most `maxMs`, less up to a quarter at random (`random` in [0, 1)) so that tasks
 * failing together do not all come back together.
 */
export function backoff(attempt: number, baseMs: number, maxMs: number, random: number = Math.random()): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 52));
  return Math.round(full * (1 - random / 4));
}
