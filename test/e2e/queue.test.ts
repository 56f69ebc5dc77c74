// The durable queue on the real database engines: what a rolled-back transaction enqueues
// does not exist; a commit wakes the workers of its process; two workers (on PostgreSQL, two
// connection pools, as two server instances) never run one task twice; failures are retried
// with backoff and every attempt is recorded; a dead worker's task comes back when its lease
// ends, not before; a stopping worker hands its tasks back; old tasks are pruned.
import { expect } from "chai";
import type { Database } from "../../runtime/db/connect.js";
import { backoff, claim, enqueue, enqueueMany, finish, prune, renewLease } from "../../runtime/queue/tasks.js";
import { DEFAULT_WORKER_SETTINGS, TaskFailure, Worker, type TaskHandler } from "../../runtime/queue/worker.js";
import { configFromEnv } from "../../runtime/config.js";
import { attemptsOf, engine, kind, queueDatabase, removeTestTasks, tasksOf, waitFor } from "../support/queue.js";

/** Poll rarely: a test passing proves the worker was woken, not that it polled. */
const IDLE = { pollMs: 3_600_000 };

describe(`queue (${engine})`, () => {
  let db: Database;
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  const worker = (d: Database, handlers: Record<string, TaskHandler>, settings: ConstructorParameters<typeof Worker>[2] = {}) => {
    const w = new Worker(d.knex, handlers, { ...IDLE, ...settings }, (err) => errors.push(err)).start();
    workers.push(w);
    return w;
  };

  before(async () => {
    db = await queueDatabase();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  after(async () => {
    await removeTestTasks(db.knex);
    await db.close();
  });

  it("a rolled-back transaction enqueues nothing; a committed one enqueues many rows in one statement", async () => {
    const k = kind("rollback");
    const failed = await db.knex.transaction(async (trx) => {
      await enqueueMany(trx, [{ kind: k, payload: { n: 1 } }, { kind: k, payload: { n: 2 } }]);
      throw new Error("the write failed");
    }).catch((err: Error) => err.message);
    expect(failed).to.equal("the write failed");
    expect(await tasksOf(db.knex, k)).to.deep.equal([]);

    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    await db.knex.transaction(async (trx) => {
      trx.on("query", listen);
      await enqueueMany(trx, Array.from({ length: 300 }, (_, n) => ({ kind: k, payload: { n, text: "é \"quoted\" \\ ✓" } })));
      trx.removeListener("query", listen);
    });
    expect(statements.filter((s) => /insert/i.test(s))).to.have.length(1);
    const rows = await tasksOf(db.knex, k);
    expect(rows).to.have.length(300);
    expect(rows[299]).to.include({ state: "queued", attempts: 0, last_error: null });
    expect(rows[299].payload).to.deep.equal({ n: 299, text: "é \"quoted\" \\ ✓" });
  });

  it("a commit wakes the workers of its process at once; a savepoint's release does not count as the commit", async () => {
    const k = kind("wake");
    const seen: unknown[] = [];
    worker(db, { [k]: async (payload) => { seen.push(payload); } });
    await db.knex.transaction(async (trx) => {
      await trx.transaction(async (inner) => enqueue(inner, k, "from a savepoint"));
      // The savepoint is released; the task is not visible to the worker until the commit.
      expect(seen).to.deep.equal([]);
    });
    // The handler runs before its outcome is written: wait for the record, not for the handler.
    const task = await waitFor("the task to be recorded as done", async () => (await tasksOf(db.knex, k)).find((t) => t.state !== "queued" && t.state !== "running"));
    expect(seen).to.deep.equal(["from a savepoint"]);
    expect(task).to.include({ state: "succeeded", attempts: 1 });
    expect(await attemptsOf(db.knex, task.id)).to.have.length(1).and.to.have.nested.property("[0].outcome", "succeeded");
  });

  it("two workers on one database run each of 200 tasks exactly once", async () => {
    const k = kind("pair");
    const other = await queueDatabase(db);
    try {
      const runs = new Map<number, number>();
      let inFlight = 0;
      let opened = false;
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const handler: TaskHandler = async (payload) => {
        const n = (payload as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        // The first tasks wait until both workers hold a full batch: eight at once is more
        // than one worker of four may run, so both are claiming from here on.
        if (++inFlight === 8 && !opened) { opened = true; open(); }
        await gate;
        await new Promise((r) => setTimeout(r, n % 3));
        inFlight--;
      };
      worker(db, { [k]: handler }, { concurrency: 4 });
      worker(other, { [k]: handler }, { concurrency: 4 });
      await enqueueMany(db.knex, Array.from({ length: 200 }, (_, n) => ({ kind: k, payload: { n } })));
      await waitFor("200 tasks to succeed", async () => (await db.knex("armature_tasks").where({ kind: k, state: "succeeded" }).count({ n: "*" }))[0].n === "200");
      expect(runs.size).to.equal(200);
      expect([...runs.values()].filter((c) => c !== 1), "tasks run more than once").to.deep.equal([]);
      const attempts = await db.knex("armature_task_attempts as a").join("armature_tasks as t", "t.id", "a.task_id").where("t.kind", k)
        .select("a.outcome", "a.worker", "a.attempt");
      expect(attempts).to.have.length(200);
      expect(attempts.every((a) => a.outcome === "succeeded" && a.attempt === 1)).to.equal(true);
      expect(new Set(attempts.map((a) => a.worker)).size, "both workers ran tasks").to.equal(2);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await other.close();
    }
  });

  it("a failing task is retried with growing waits until it succeeds, each attempt recorded", async () => {
    const k = kind("retry");
    let calls = 0;
    worker(db, {
      [k]: async () => {
        calls++;
        if (calls === 1) throw new TaskFailure("Status 503 returned", { statusCode: 503 });
        if (calls === 2) throw new Error("connect ECONNREFUSED");
        return { statusCode: 200, detail: "fine" };
      },
    }, { retryBaseMs: 50, retryMaxMs: 1000 });
    await enqueue(db.knex, k, {});
    const task = await waitFor("the task to succeed", async () => (await tasksOf(db.knex, k)).find((t) => t.state === "succeeded"));
    expect(task).to.include({ attempts: 3, last_error: null });
    const attempts = await attemptsOf(db.knex, task.id);
    expect(attempts.map(({ attempt, outcome, status_code, detail }) => ({ attempt, outcome, status_code, detail }))).to.deep.equal([
      { attempt: 1, outcome: "failed", status_code: 503, detail: "Status 503 returned" },
      { attempt: 2, outcome: "failed", status_code: null, detail: "connect ECONNREFUSED" },
      { attempt: 3, outcome: "succeeded", status_code: 200, detail: "fine" },
    ]);
    // Each retry waited at least its backoff (less its random quarter) after the failure before it.
    const { rows } = await db.knex.raw(
      `SELECT extract(epoch FROM (b.started - a.finished)) * 1000 AS waited FROM armature_task_attempts a JOIN armature_task_attempts b
       ON b.task_id = a.task_id AND b.attempt = a.attempt + 1 WHERE a.task_id = ? ORDER BY a.attempt`, [task.id]);
    const waited = rows.map((r: { waited: string }) => Number(r.waited));
    expect(waited[0]).to.be.at.least(50 * 0.75 - 1);
    expect(waited[1]).to.be.at.least(100 * 0.75 - 1);
  });

  it("a task that keeps failing is given up after its attempts; one refused for good at once", async () => {
    const k = kind("give-up");
    worker(db, {
      [k]: async (payload) => {
        if ((payload as { fatal?: boolean }).fatal) throw new TaskFailure("The payload URL is not http or https.", { retry: false });
        throw new Error("still down");
      },
    }, { retryBaseMs: 1, retryMaxMs: 5, maxAttempts: 3 });
    await enqueueMany(db.knex, [{ kind: k, payload: {} }, { kind: k, payload: { fatal: true } }, { kind: k, payload: {}, maxAttempts: 1 }]);
    const tasks = await waitFor("all three to be given up", async () => {
      const rows = await tasksOf(db.knex, k);
      return rows.every((t) => t.state === "failed") ? rows : undefined;
    });
    expect(tasks.map((t) => [t.attempts, t.last_error])).to.deep.equal([
      [3, "still down"], [1, "The payload URL is not http or https."], [1, "still down"],
    ]);
    expect((await attemptsOf(db.knex, tasks[0].id)).map((a) => a.outcome)).to.deep.equal(["failed", "failed", "failed"]);
  });

  it("a dead worker's task is claimed again once its lease ends, never while it holds", async () => {
    const k = kind("lease");
    await enqueue(db.knex, k, { n: 1 });
    const [held] = await claim(db.knex, { worker: "dead", kinds: [k], limit: 5, leaseMs: 3_600_000 });
    expect(held).to.include({ attempt: 1, kind: k });
    expect(await claim(db.knex, { worker: "other", kinds: [k], limit: 5, leaseMs: 60_000 }), "claimed while the lease holds").to.deep.equal([]);
    expect(await renewLease(db.knex, "dead", held, 3_600_000)).to.equal(true);

    // The lease runs out (its worker died without a word).
    await db.knex("armature_tasks").where("id", held.id).update({ run_at: db.knex.raw("now() - interval '1 second'"), claimed_until: db.knex.raw("now() - interval '1 second'") });
    const seen: unknown[] = [];
    worker(db, { [k]: async (payload) => { seen.push(payload); } }, { pollMs: 20 });
    const task = await waitFor("the task to be run again", async () => (await tasksOf(db.knex, k)).find((t) => t.state === "succeeded"));
    expect(seen).to.deep.equal([{ n: 1 }]);
    expect(task.attempts).to.equal(2);
    const attempts = await attemptsOf(db.knex, task.id);
    expect(attempts.map((a) => [a.attempt, a.worker === "dead", a.outcome])).to.deep.equal([[1, true, "abandoned"], [2, false, "succeeded"]]);
    expect(attempts[0].detail).to.match(/lease expired/);

    // The dead worker comes back: its lease is gone and what it says changes only its own attempt.
    expect(await renewLease(db.knex, "dead", held, 60_000)).to.equal(false);
    await finish(db.knex, "dead", held, { outcome: "failed", report: { detail: "late" }, retryInMs: 0 }, 5);
    expect((await tasksOf(db.knex, k))[0]).to.include({ state: "succeeded", attempts: 2, last_error: null });
  });

  it("a stopping worker interrupts its handlers and hands their tasks back at once", async () => {
    const k = kind("stop");
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const w = worker(db, {
      [k]: (_payload, { signal }) => new Promise((_resolve, reject) => {
        started();
        signal.addEventListener("abort", () => reject(new Error("aborted")));
      }),
    });
    await enqueue(db.knex, k, {});
    await running;
    await w.stop();
    const [task] = await tasksOf(db.knex, k);
    expect(task).to.include({ state: "queued", attempts: 1 });
    expect(task.last_error).to.match(/^Interrupted \(the worker stopped\)/);
    expect((await attemptsOf(db.knex, task.id)).map((a) => a.outcome)).to.deep.equal(["interrupted"]);
    expect((await db.knex.raw("SELECT run_at <= now() AS due FROM armature_tasks WHERE id = ?", [task.id])).rows[0].due).to.equal(true);
  });

  it("tasks that ended longer ago than the retention are deleted with their attempts", async () => {
    const k = kind("prune");
    worker(db, { [k]: async () => undefined });
    await enqueueMany(db.knex, [{ kind: k, payload: 1 }, { kind: k, payload: 2 }]);
    const tasks = await waitFor("both to succeed", async () => {
      const rows = await tasksOf(db.knex, k);
      return rows.every((t) => t.state === "succeeded") ? rows : undefined;
    });
    await db.knex("armature_tasks").where("id", tasks[0].id).update({ finished: db.knex.raw("now() - interval '31 days'") });
    expect(await prune(db.knex, 30)).to.be.at.least(1);
    expect((await tasksOf(db.knex, k)).map((t) => t.id)).to.deep.equal([tasks[1].id]);
    expect(await attemptsOf(db.knex, tasks[0].id)).to.deep.equal([]);
  });
});

describe("unit: queue backoff", () => {
  it("doubles from the base up to the maximum, less up to a quarter at random", () => {
    expect([1, 2, 3, 4].map((n) => backoff(n, 10_000, 3_600_000, 0))).to.deep.equal([10_000, 20_000, 40_000, 80_000]);
    expect(backoff(12, 10_000, 3_600_000, 0)).to.equal(3_600_000);
    expect(backoff(500, 10_000, 3_600_000, 0)).to.equal(3_600_000);
    expect(backoff(1, 10_000, 3_600_000, 0.999)).to.be.within(7_500, 10_000);
  });
});

describe("unit: queue settings", () => {
  it("come from QUEUE_* in seconds and days, with the documented defaults", () => {
    const defaults = configFromEnv({});
    expect(defaults.queueWorker).to.equal(true);
    expect(defaults.queue).to.deep.equal(DEFAULT_WORKER_SETTINGS);
    expect(defaults.queue).to.deep.equal({ concurrency: 4, pollMs: 2000, leaseMs: 60000, maxAttempts: 10, retryBaseMs: 10000, retryMaxMs: 3600000, retentionDays: 30 });
    expect(defaults.webhookTimeout).to.equal(10);
    const set = configFromEnv({ QUEUE_WORKER: "0", QUEUE_CONCURRENCY: "8", QUEUE_LEASE: "120", QUEUE_RETRY_DELAY: "0", QUEUE_RETENTION: "0", WEBHOOK_TIMEOUT: "3" });
    expect(set).to.include({ queueWorker: false, webhookTimeout: 3 });
    expect(set.queue).to.include({ concurrency: 8, leaseMs: 120000, retryBaseMs: 0, retentionDays: 0 });
    expect(() => configFromEnv({ QUEUE_LEASE: "1m" })).to.throw('QUEUE_LEASE must be a whole number of 0 or more, not "1m"');
  });
});
