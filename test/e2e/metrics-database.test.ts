// The database series of `/metrics`, scraped over HTTP from an app instance of the test's own
// with metrics on (authentication off): the pool's connections in use and waiting, read while
// the test itself holds every connection of a pool and one more is asked for; statements and
// failed statements by SQLSTATE; the queue's depth by kind and status. The pool held is a
// database of the test's own that the process's series watch as the server watches its own
// (on PostgreSQL opened as the server opens it with STATEMENT_TIMEOUT, so its reads' pool is
// held too), since holding the shared test database's connections would stall the server
// answering the scrape. Nothing here depends on time: each figure is read when it is known.
import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Knex } from "knex";
import { configFromEnv } from "../../runtime/config.js";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { readRouting } from "../../runtime/db/replicas.js";
import { processSeries } from "../../runtime/metrics/series.js";
import { createApp } from "../../runtime/server.js";
import { apis } from "../../generated/server.js";
import { emptyClusterDump, openEmbedded } from "../support/fresh-db.js";
import { startTestServer } from "../support/server.js";
import { eventually } from "../support/waiting.js";
import { parsePrometheus, total, type Family } from "../support/prometheus.js";

const postgresUrl = process.env.DATABASE_URL;

describe(`metrics: the database's series (${postgresUrl ? "postgresql" : "pglite"})`, function () {
  this.timeout(240_000);
  let server: Server;
  let base: string;
  let own: Database;
  /** The pools of `own`: its primary's, and on PostgreSQL its reads'. */
  let pools: Knex[];

  before(async () => {
    const { db } = await startTestServer();
    const config = { ...configFromEnv(), publicUrl: undefined, logRequests: false, metrics: { enabled: true, authenticated: false } };
    const app = createApp(apis, db, config);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // No bound on waiting for a connection: the one asked for waits as long as the test holds them.
    own = postgresUrl ? await openDatabase({ databaseUrl: postgresUrl, dataDir: "", poolSize: 2, poolTimeout: 3600, statementTimeoutMs: 60_000 }) : await openEmbedded(await emptyClusterDump(), 0);
    processSeries().watch(own.knex);
    pools = [own.knex, ...(readRouting(own.knex)?.pools() ?? [])];
    expect(pools).to.have.length(postgresUrl ? 2 : 1);
  });

  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await own?.close();
  });

  async function scrape(): Promise<Map<string, Family>> {
    const res = await fetch(`${base}/metrics`);
    const text = await res.text();
    expect(res.status, text).to.equal(200);
    return parsePrometheus(text);
  }

  /** The most connections `pool` may hold, as its own pool object says. */
  function maxOf(pool: Knex): number {
    const client = pool.client as { pool?: { max: number }; config?: { connectionPool?: { options: { max: number } } } };
    return client.pool?.max ?? client.config!.connectionPool!.options.max;
  }

  it("counts the connections lent and the requests waiting for one, reads' pools included", async () => {
    const before = await scrape();
    const max = pools.map(maxOf);
    const held: Array<[Knex, unknown]> = [];
    for (const [i, pool] of pools.entries()) {
      for (let n = 0; n < max[i]; n++) held.push([pool, await pool.client.acquireConnection()]);
    }
    // One more of the primary's: it waits until a connection is given back (a query runs once asked for its result).
    const waiting = own.knex.raw("SELECT 1 AS one").then(() => "answered");
    try {
      const during = await eventually(async () => {
        const now = await scrape();
        return total(now, "armature_db_pool_waiting") - total(before, "armature_db_pool_waiting") >= 1 ? now : undefined;
      }, "the waiting request counted");
      const sum = max.reduce((a, b) => a + b);
      expect(total(during, "armature_db_pool_max") - total(before, "armature_db_pool_max"), "the pools watched since").to.equal(0);
      expect(total(during, "armature_db_pool_max")).to.be.at.least(sum);
      expect(total(during, "armature_db_pool_in_use") - total(before, "armature_db_pool_in_use")).to.equal(sum);
      expect(total(during, "armature_db_pool_waiting") - total(before, "armature_db_pool_waiting")).to.equal(1);
    } finally {
      for (const [pool, connection] of held) await pool.client.releaseConnection(connection);
    }
    expect(await waiting).to.equal("answered");
    const after = await eventually(async () => {
      const now = await scrape();
      return total(now, "armature_db_pool_in_use") === total(before, "armature_db_pool_in_use") ? now : undefined;
    }, "the connections given back");
    expect(total(after, "armature_db_pool_waiting")).to.equal(total(before, "armature_db_pool_waiting"));
  });

  it("counts statements, and failed ones by SQLSTATE, of the reads' pool too", async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) await own.knex.raw("SELECT 1");
    const failed = (pool: Knex) => pool.raw("SELECT * FROM armature_no_such_table").then(() => expect.fail("the table is not there"), () => undefined);
    for (const pool of pools) await failed(pool);
    await failed(own.knex);
    const after = await scrape();
    // Only this test's statements fail with 42P01: that count is exact.
    expect(total(after, "armature_db_errors_total", { code: "42P01" }) - total(before, "armature_db_errors_total", { code: "42P01" })).to.equal(pools.length + 1);
    expect(total(after, "armature_db_statements_total") - total(before, "armature_db_statements_total")).to.be.at.least(3 + pools.length + 1);
  });

  it("reads the queue's depth by kind and status from the database at each scrape", async () => {
    const { db } = await startTestServer();
    const kind = `metrics-depth-${process.pid}`;
    const ids = (await db("armature_tasks").insert([
      { kind, payload: {}, state: "queued", run_at: db.raw("now() + interval '1 day'") },
      { kind, payload: {}, state: "queued", run_at: db.raw("now() + interval '1 day'") },
      { kind, payload: {}, state: "running", claimed_by: "metrics test", claimed_until: db.raw("now() + interval '1 day'") },
      { kind, payload: {}, state: "succeeded", finished: db.raw("now()") },
    ]).returning("id")).map((r: { id: string | number }) => r.id);
    try {
      const during = await scrape();
      expect(total(during, "armature_queue_tasks", { kind, status: "queued" })).to.equal(2);
      expect(total(during, "armature_queue_tasks", { kind, status: "running" })).to.equal(1);
      // Ended tasks are not the queue's depth.
      expect(total(during, "armature_queue_tasks", { kind })).to.equal(3);
      // Not due yet: none of them has waited.
      expect(total(during, "armature_queue_oldest_due_seconds", { kind })).to.equal(0);
      expect(total(during, "armature_database_up")).to.equal(1);
    } finally {
      await db("armature_tasks").whereIn("id", ids).delete();
    }
    expect(total(await scrape(), "armature_queue_tasks", { kind })).to.equal(0);
  });
});
