// Read replicas, for real: a PostgreSQL cluster this test makes for itself, a streaming replica
// of it (pg_basebackup -R, pg_ctl on a free port), and two `serve` instances reading from it.
// Shown from the databases' own pg_stat_statements: reads are served by the replica; with the
// replica's replay paused (pg_wal_replay_pause: it certainly lacks every write made meanwhile,
// with no race against its replay), a client's write is seen by its next read through the
// other instance (500 times, and once for every kind of write), while a reader who wrote
// nothing still reads the replica; a replica further behind than DATABASE_REPLICA_MAX_LAG gets
// no reads; the replica stopped and started under load costs no request an error; the primary
// restarted under load answers 503 meanwhile, loses no acknowledged write and serves again by
// itself.
import { expect } from "chai";
import pg from "pg";
import { eventually, freePort } from "../support/waiting.js";
import { armature, Cluster, clustersAvailable, kill, serve, serverEnv } from "../support/clusters.js";

const TOKEN = "0123456789abcdef0123456789abcdef01234567";
const headers = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" };
/** A user who only reads: with no writes of their own to wait for, their reads may go to the replica whatever the writers do. */
const READER = "abcdef0123456789abcdef0123456789abcdef01";
const reader = { Authorization: `Token ${READER}` };

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The server's reads of tenants a cluster has run, as its pg_stat_statements counts them (this test's own left out). */
async function tenantReads(url: string): Promise<number> {
  const [row] = await query<{ n: number }>(url, `SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_statements
    WHERE query ILIKE '%tenancy_tenant%' AND query !~* '^\\s*(insert|update|delete|SELECT 1 FROM tenancy_tenant)' AND query NOT ILIKE '%pg_stat_statements%'`);
  return row.n;
}

/** A request the server never answered (a refused or dropped connection): counted as status 0, a failure. */
const NO_ANSWER = 0;

/**
 * Requests from `lanes` clients until `stop` says so, each status counted: the admin's writes
 * (named `prefix-n`) and the reader's reads of them. Those begun after `recovered()` are also
 * counted apart, in `after`: what "none after" an outage is measured on.
 */
function load(prefix: string, bases: string[], lanes: number) {
  const statuses = new Map<number, number>();
  const after = new Map<number, number>();
  const acknowledged: string[] = [];
  let running = true;
  let recovered = false;
  let n = 0;
  const lane = async (k: number) => {
    while (running) {
      const i = n++;
      const begunAfter = recovered;
      const base = bases[(i + k) % bases.length];
      const write = i % 3 === 0;
      const name = `${prefix}-${i}`;
      const res = await fetch(`${base}/api/tenancy/tenants/${write ? "" : acknowledged.length ? `${acknowledged[i % acknowledged.length]}/` : "?limit=5"}`, write
        ? { method: "POST", headers, body: JSON.stringify({ name, slug: name }) }
        : { headers: reader }).catch(() => undefined);
      // A read of an object made a moment ago, before the replica replayed it, is rightly not found.
      if (res?.status === 404 && !write) continue;
      const status = res?.status ?? NO_ANSWER;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (begunAfter) after.set(status, (after.get(status) ?? 0) + 1);
      if (!res) continue;
      const body = await res.json().catch(() => ({})) as { id?: string };
      if (res.status === 201) acknowledged.push(body.id!);
      if (res.status === 503) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, (_, k) => lane(k)));
  const ok = () => (statuses.get(200) ?? 0) + (statuses.get(201) ?? 0);
  return {
    statuses, after, acknowledged,
    /** From here on, requests begin after the outage ended. */
    recovered: () => { recovered = true; },
    /** Until `more` further requests succeeded. */
    succeeded: (more: number) => { const mark = ok(); return eventually(async () => (ok() >= mark + more ? true : undefined), `${more} more successes`); },
    stop: async () => { running = false; await done; return Object.fromEntries(statuses); },
  };
}

describe("read replicas: a real streaming replica under two instances", function () {
  this.timeout(600_000);
  let primary: Cluster | undefined;
  let replica: Cluster | undefined;
  let a: Awaited<ReturnType<typeof serve>> | undefined;
  let b: Awaited<ReturnType<typeof serve>> | undefined;
  let appPassword = "";

  /** `work` with the replica's replay paused: it holds nothing committed meanwhile. */
  async function replayPaused<T>(work: () => Promise<T>): Promise<T> {
    await query(replica!.url, "SELECT pg_wal_replay_pause()");
    try {
      return await work();
    } finally {
      await query(replica!.url, "SELECT pg_wal_replay_resume()");
    }
  }
  const onReplica = async (id: string) => (await query(replica!.url, "SELECT 1 FROM tenancy_tenant WHERE id = $1", [id])).length > 0;

  before(async function () {
    // The PostgreSQL pass, where PostgreSQL's own tools are at hand; PGlite has no replicas.
    if (!process.env.DATABASE_URL || !clustersAvailable()) this.skip();
    const stats = "shared_preload_libraries=pg_stat_statements";
    primary = await Cluster.init(await freePort(), [stats]);
    await primary.start();
    const setup = armature(serverEnv(primary.url), "createsuperuser", "--username", "admin", "--password", "admin-password", "--token", TOKEN);
    expect(await setup.exited, setup.out()).to.equal(0);
    const second = armature(serverEnv(primary.url), "createsuperuser", "--username", "reader", "--password", "reader-password", "--token", READER);
    expect(await second.exited, second.out()).to.equal(0);
    const password = armature(serverEnv(primary.url), "create-app-password", "--username", "admin", "--name", "replicas");
    expect(await password.exited, password.out()).to.equal(0);
    appPassword = /([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})/.exec(password.out())![1];
    await query(primary.url, "CREATE EXTENSION pg_stat_statements");
    // Replay is paused below for longer than max_standby_streaming_delay's 30 s: by default,
    // resuming would then cancel at once whatever query on the replica stands in its way (the
    // test's own among them). Here replay waits for them instead.
    replica = await Cluster.replicaOf(primary, await freePort(), [stats, "max_standby_streaming_delay=-1"]);
    await replica.start();
    // A lag bound the paused replays below stay well within: those tests are about whose reads
    // the replica may serve, the lag test about the bound (with an instance of its own).
    const env = serverEnv(primary.url, { DATABASE_REPLICA_URLS: replica.url, DATABASE_POOL_TIMEOUT: "3", DATABASE_REPLICA_MAX_LAG: "600" });
    [a, b] = await Promise.all([serve(env), serve(env)]);
  });
  after(async () => {
    kill(a);
    kill(b);
    await replica?.remove();
    await primary?.remove();
  });

  it("serves reads from the replica, none from the primary", async () => {
    // Once each instance has seen the replica caught up (it polls every 200 ms).
    await eventually(async () => {
      const before = await tenantReads(replica!.url);
      for (const s of [a!, b!]) expect((await fetch(`${s.base}/api/tenancy/tenants/?limit=5`, { headers })).status).to.equal(200);
      return (await tenantReads(replica!.url)) >= before + 2 ? true : undefined;
    }, "the replica serving both instances");
    const [onReplica, onPrimary] = await Promise.all([tenantReads(replica!.url), tenantReads(primary!.url)]);
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${[a!, b!][i % 2].base}/api/tenancy/tenants/?limit=5&offset=${i}`, { headers });
      expect(res.status).to.equal(200);
    }
    expect((await tenantReads(replica!.url)) - onReplica, "reads on the replica").to.be.at.least(40);
    expect((await tenantReads(primary!.url)) - onPrimary, "reads on the primary").to.equal(0);
  });

  it("shows each write to its writer's next read through the other instance, 500 times", async () => {
    let last = "";
    await replayPaused(async () => {
      const pairs = async (lane: number) => {
        for (let i = lane; i < 500; i += 5) {
          const [writer, other] = i % 2 ? [a!, b!] : [b!, a!];
          const name = `ryw-${i}`;
          const made = await fetch(`${writer.base}/api/tenancy/tenants/`, { method: "POST", headers, body: JSON.stringify({ name, slug: name }) });
          expect(made.status, await made.clone().text()).to.equal(201);
          const { id } = await made.json() as { id: string };
          const read = await fetch(`${other.base}/api/tenancy/tenants/${id}/`, { headers });
          expect(read.status, `pair ${i}`).to.equal(200);
          expect(((await read.json()) as { name: string }).name).to.equal(name);
          // The replica has not replayed it: a read sent there would have missed it.
          expect(await onReplica(id), `pair ${i} on the replica`).to.equal(false);
          last = id;
        }
      };
      await Promise.all([0, 1, 2, 3, 4].map(pairs));
      // Meanwhile the replica still serves a reader who wrote nothing, and they do not see the
      // writes yet: the replica was there to be read, and the writer's reads were kept off it.
      const before = await tenantReads(replica!.url);
      expect((await fetch(`${a!.base}/api/tenancy/tenants/${last}/`, { headers: reader })).status, "the other user's read, on the replica").to.equal(404);
      expect(await tenantReads(replica!.url), "the other user's read on the replica").to.be.above(before);
    });
    // Once the replica has replayed the writes, the writer's reads go back to it.
    const before = await tenantReads(replica!.url);
    await eventually(async () => {
      expect((await fetch(`${a!.base}/api/tenancy/tenants/?limit=5`, { headers })).status).to.equal(200);
      return (await tenantReads(replica!.url)) > before ? true : undefined;
    }, "the writer's reads on the replica again");
  });

  it("shows every kind of write to its writer's next read through the other instance", async () => {
    const json = async (res: Response) => ({ status: res.status, body: await res.json().catch(() => null) as any });
    const basic = { Authorization: `Basic ${Buffer.from(`admin:${appPassword}`).toString("base64")}`, "Content-Type": "application/json" };
    const seen: Record<string, unknown> = {};
    await replayPaused(async () => {
      const name = "ryw-kinds";
      const made = await json(await fetch(`${a!.base}/api/tenancy/tenants/`, { method: "POST", headers, body: JSON.stringify({ name, slug: name }) }));
      expect(made.status).to.equal(201);
      const id = made.body.id as string;
      const detail = async () => (await json(await fetch(`${b!.base}/api/tenancy/tenants/${id}/`, { headers }))).body?.description;

      expect((await fetch(`${a!.base}/api/tenancy/tenants/${id}/`, { method: "PATCH", headers, body: JSON.stringify({ description: "patched" }) })).status).to.equal(200);
      seen.patch = await detail();
      expect((await fetch(`${a!.base}/api/tenancy/tenants/`, { method: "PATCH", headers, body: JSON.stringify([{ id, description: "bulk" }]) })).status).to.equal(200);
      seen.bulk = await detail();
      const mutation = await json(await fetch(`${a!.base}/api/graphql/`, { method: "POST", headers, body: JSON.stringify({ query: `mutation { update_tenant(id: "${id}", input: {description: "graphql"}) { id } }` }) }));
      expect(mutation.status, JSON.stringify(mutation.body)).to.equal(200);
      seen.graphqlMutation = await detail();
      seen.graphqlQuery = (await json(await fetch(`${b!.base}/api/graphql/`, { method: "POST", headers, body: JSON.stringify({ query: `{ tenant(id: "${id}") { description } }` }) }))).body?.data?.tenant?.description;
      expect((await fetch(`${a!.base}/api/tenancy/tenants/${id}/notes/`, { method: "POST", headers, body: JSON.stringify({ note: "a note" }) })).status).to.equal(201);
      seen.note = (await json(await fetch(`${b!.base}/api/tenancy/tenants/${id}/notes/`, { headers }))).body?.count;
      expect((await fetch(`${a!.base}/api/tenancy/tenants/`, { method: "POST", headers: { ...headers, "Content-Type": "text/csv" }, body: "name,slug\nryw-csv,ryw-csv\n" })).status).to.equal(201);
      seen.csvImport = (await json(await fetch(`${b!.base}/api/tenancy/tenants/?slug=ryw-csv`, { headers }))).body?.count;
      expect((await fetch(`${a!.base}/api/users/tokens/`, { method: "POST", headers, body: JSON.stringify({ description: "ryw-token" }) })).status).to.equal(201);
      seen.token = (await json(await fetch(`${b!.base}/api/users/tokens/?description=ryw-token`, { headers }))).body?.count;
      const event = await json(await fetch(`${a!.base}/wp-json/calendar/events/v1/events`, { method: "POST", headers: basic, body: JSON.stringify({ title: "ryw-event", start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 11:00:00", status: "publish" }) }));
      expect(event.status, JSON.stringify(event.body)).to.equal(201);
      seen.calendarCreate = (await json(await fetch(`${b!.base}/wp-json/calendar/events/v1/events/${event.body.id}`, { headers: basic }))).status;
      expect((await fetch(`${a!.base}/wp-json/calendar/events/v1/events/${event.body.id}`, { method: "POST", headers: basic, body: JSON.stringify({ title: "ryw-event-2" }) })).status).to.equal(200);
      seen.calendarUpdate = (await json(await fetch(`${b!.base}/wp-json/calendar/events/v1/events/${event.body.id}`, { headers: basic }))).body?.title;
      // A calendar reader who does not authenticate reads the replica, which has none of it yet.
      seen.calendarAnonymous = (await fetch(`${b!.base}/wp-json/calendar/events/v1/events/${event.body.id}`)).status;
      expect((await fetch(`${a!.base}/api/tenancy/tenants/${id}/`, { method: "DELETE", headers })).status).to.equal(204);
      seen.delete = (await fetch(`${b!.base}/api/tenancy/tenants/${id}/`, { headers })).status;
      expect(await onReplica(id), "the replica holds none of it").to.equal(false);
    });
    expect(seen).to.deep.equal({
      patch: "patched", bulk: "bulk", graphqlMutation: "graphql", graphqlQuery: "graphql", note: 1, csvImport: 1, token: 1,
      calendarCreate: 200, calendarUpdate: "ryw-event-2", calendarAnonymous: 404, delete: 404,
    });
  });

  it("gives no reads to a replica further behind than DATABASE_REPLICA_MAX_LAG, and reads again once it catches up", async () => {
    const c = await serve(serverEnv(primary!.url, { DATABASE_REPLICA_URLS: replica!.url, DATABASE_REPLICA_MAX_LAG: "1" }));
    try {
      /** Whether the reader's next list through `s` runs on `cluster`. */
      const readsOn = async (s: { base: string }, cluster: Cluster) => {
        const before = await tenantReads(cluster.url);
        expect((await fetch(`${s.base}/api/tenancy/tenants/?limit=5`, { headers: reader })).status).to.equal(200);
        return (await tenantReads(cluster.url)) > before;
      };
      await eventually(async () => ((await readsOn(c, replica!)) ? true : undefined), "the replica serving the new instance");
      await replayPaused(async () => {
        // The primary moves on (an idle primary makes no replica late), and the replica falls behind.
        let n = 0;
        await eventually(async () => {
          const name = `lag-${n++}`;
          expect((await fetch(`${a!.base}/api/tenancy/tenants/`, { method: "POST", headers, body: JSON.stringify({ name, slug: name }) })).status).to.equal(201);
          return (await readsOn(c, primary!)) ? true : undefined;
        }, "the lagging replica's reads on the primary");
        // Every read of that instance now: none on the replica.
        const onReplicaBefore = await tenantReads(replica!.url);
        for (let i = 0; i < 10; i++) expect(await readsOn(c, primary!), `read ${i} on the primary`).to.equal(true);
        expect(await tenantReads(replica!.url), "reads on the lagging replica").to.equal(onReplicaBefore);
        // The instances allowed 600 s still read there.
        expect(await readsOn(a!, replica!), "an instance with a wider bound").to.equal(true);
      });
      await eventually(async () => ((await readsOn(c, replica!)) ? true : undefined), "reads on the replica once it caught up");
    } finally {
      kill(c);
    }
  });

  it("moves reads to the primary when the replica stops, and back when it returns, with no error", async () => {
    const traffic = load("replica-stop", [a!.base, b!.base], 4);
    await traffic.succeeded(30);
    await replica!.stop();
    await traffic.succeeded(60);
    await replica!.start();
    const back = await tenantReads(replica!.url);
    await eventually(async () => ((await tenantReads(replica!.url)) > back + 10 ? true : undefined), "reads on the replica again");
    await traffic.succeeded(30);
    const seen = await traffic.stop();
    expect(Object.keys(seen).map(Number).filter((s) => s !== 200 && s !== 201), `${JSON.stringify(seen)}\n${a!.out()}\n${b!.out()}`).to.deep.equal([]);
  });

  it("answers 503 while the primary restarts, none after, and keeps every acknowledged write", async () => {
    const traffic = load("primary-crash", [a!.base, b!.base], 4);
    await traffic.succeeded(30);
    await primary!.crash();
    await eventually(async () => ((traffic.statuses.get(503) ?? 0) >= 8 ? true : undefined), "503s while the primary is away");
    await primary!.start();
    await eventually(async () => ((await fetch(`${a!.base}/health/`)).status === 200 && (await fetch(`${b!.base}/health/`)).status === 200 ? true : undefined), "healthy again");
    // Every request begun once both instances say they are healthy is to succeed: the pools
    // mended themselves, no broken connection is handed out, nothing is restarted.
    traffic.recovered();
    await traffic.succeeded(80);
    const seen = await traffic.stop();
    expect(Object.keys(seen).map(Number).filter((s) => ![200, 201, 503].includes(s)), `${JSON.stringify(seen)}\n${a!.out()}\n${b!.out()}`).to.deep.equal([]);
    expect([...traffic.after.keys()].filter((s) => s !== 200 && s !== 201), `answers to requests begun after recovery: ${JSON.stringify(Object.fromEntries(traffic.after))}`).to.deep.equal([]);
    expect(a!.child.exitCode ?? b!.child.exitCode, "both servers kept running").to.equal(null);
    const found = await query<{ id: string }>(primary!.url, "SELECT id::text FROM tenancy_tenant WHERE id = ANY($1::uuid[])", [traffic.acknowledged]);
    expect(found.length, "acknowledged writes present after the crash").to.equal(traffic.acknowledged.length);
  });
});
