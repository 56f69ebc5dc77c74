// A pool with every connection busy (DATABASE_POOL_TIMEOUT): an app instance of its own over
// the shared test database with one connection for writes and one for reads, each held by a
// request that waits on a table lock this test takes. The next request waits its bounded time
// for a connection and is answered 503 with Retry-After in the API's own error shape, while the
// first is still held: nothing hangs. Released, the held requests end as they would have.
// PostgreSQL only: the embedded database is one connection in the process, which a lock
// cannot hold from outside.
import { expect } from "chai";
import pg from "pg";
import { ownInstance, startTestServer, type OwnInstance } from "../support/server.js";
import { eventually } from "../support/waiting.js";
import { uniq } from "./inventory/support.js";

describe("an exhausted connection pool answers 503 after DATABASE_POOL_TIMEOUT", function () {
  this.timeout(240_000);
  let own: OwnInstance | undefined;
  let base = "";
  let token = "";
  let locker: pg.Client | undefined;

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    token = (await startTestServer()).token;
    own = await ownInstance({ poolSize: 1, poolTimeout: 1 });
    base = own.base;
  });
  afterEach(async () => {
    await locker?.end().catch(() => undefined);
    locker = undefined;
  });
  after(async () => {
    await own?.close();
  });

  /** Takes an ACCESS EXCLUSIVE lock on the tenants' table, held until `release`. */
  async function lockTenants(): Promise<{ release: () => Promise<void> }> {
    locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE tenancy_tenant IN ACCESS EXCLUSIVE MODE");
    const held = locker;
    return { release: async () => { await held.query("ROLLBACK"); } };
  }

  /**
   * Until a session waits for the lock: the request holding the pool's connection. Asked on a
   * connection of its own, outside the locker's transaction, which would see one snapshot of
   * pg_stat_activity for as long as it lasts.
   */
  const waitingOnLock = () => eventually(async () => {
    const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await watcher.connect();
    try {
      const { rows } = await watcher.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%tenancy_tenant%'`);
      return rows[0].n >= 1 ? true : undefined;
    } finally {
      await watcher.end();
    }
  }, "a request waiting on the lock");

  const auth = () => ({ Authorization: `Token ${token}`, Accept: "application/json", "Content-Type": "application/json" });

  async function expectUnavailable(res: Response): Promise<void> {
    expect(res.status, await res.clone().text()).to.equal(503);
    expect(res.headers.get("retry-after")).to.equal("5");
    expect(await res.json()).to.deep.equal({ detail: "The database is unavailable; try again shortly." });
  }

  it("a read waiting for the read pool's only connection is a 503, not a hang", async () => {
    const lock = await lockTenants();
    let firstEnded = false;
    const first = fetch(`${base}/api/tenancy/tenants/?limit=1`, { headers: auth() }).then((r) => { firstEnded = true; return r; });
    await waitingOnLock();
    await expectUnavailable(await fetch(`${base}/api/tenancy/tenants/?limit=1`, { headers: auth() }));
    expect(firstEnded, "the request holding the connection still waits").to.equal(false);
    await lock.release();
    expect((await first).status).to.equal(200);
    // The pool is whole again.
    expect((await fetch(`${base}/api/tenancy/tenants/?limit=1`, { headers: auth() })).status).to.equal(200);
  });

  it("a write waiting for the write pool's only connection is a 503 and writes nothing", async () => {
    const lock = await lockTenants();
    const held = uniq("pool-held");
    const refused = uniq("pool-refused");
    let firstEnded = false;
    const first = fetch(`${base}/api/tenancy/tenants/`, { method: "POST", headers: auth(), body: JSON.stringify({ name: held, slug: held }) })
      .then((r) => { firstEnded = true; return r; });
    await waitingOnLock();
    await expectUnavailable(await fetch(`${base}/api/tenancy/tenants/`, { method: "POST", headers: auth(), body: JSON.stringify({ name: refused, slug: refused }) }));
    expect(firstEnded, "the request holding the connection still waits").to.equal(false);
    await lock.release();
    expect((await first).status).to.equal(201);
    const { rows } = await own!.db.knex.raw("SELECT name FROM tenancy_tenant WHERE name = ANY(?) ORDER BY name", [[held, refused]]);
    expect(rows.map((r: { name: string }) => r.name)).to.deep.equal([held]);
  });
});
