// The database going away and coming back, for real: a PostgreSQL cluster this test makes for
// itself (initdb, pg_ctl on a free port; never the machine's shared server), a `serve` process
// on it under a steady load of writes and reads, and the cluster stopped hard (`pg_ctl stop -m
// immediate`, as a crash) and started again. Meanwhile: /health/ says unhealthy, requests fail
// fast with 503 and Retry-After rather than hang, nothing is a 500; afterwards the server
// answers again by itself, with no restart, and every write it acknowledged is there.
import { expect } from "chai";
import pg from "pg";
import { eventually, freePort } from "../support/waiting.js";
import { armature, Cluster, clustersAvailable, kill, serverEnv } from "../support/clusters.js";

const TOKEN = "0123456789abcdef0123456789abcdef01234567";

describe("the database crashing and coming back under load", function () {
  this.timeout(300_000);
  let cluster: Cluster | undefined;
  let server: ReturnType<typeof armature> | undefined;

  before(function () {
    // Run with the PostgreSQL pass (the server it tests), where PostgreSQL's own tools are at hand.
    if (!process.env.DATABASE_URL || !clustersAvailable()) this.skip();
  });
  after(async () => {
    kill(server);
    await cluster?.remove();
  });

  it("answers 503 with Retry-After meanwhile, never a 500 or a hang, recovers by itself, and loses no acknowledged write", async () => {
    cluster = await Cluster.init(await freePort());
    await cluster.start();
    const env = serverEnv(cluster.url, { DATABASE_POOL_TIMEOUT: "3" });
    const setup = armature(env, "createsuperuser", "--username", "admin", "--password", "admin-password", "--token", TOKEN);
    expect(await setup.exited, setup.out()).to.equal(0);
    server = armature(env, "serve", "--port", "0");
    const base = await eventually(async () => /Armature is serving[^\n]*\n[^\n]*?(http:\/\/[^/\s]+)\//.exec(server!.out())?.[1], "serving");
    const headers = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" };

    // Status 0: a request the server never answered (a refused or dropped connection), a failure.
    const statuses = new Map<number, number>();
    // The answers to requests begun once the server said it was healthy again.
    const after = new Map<number, number>();
    let recovered = false;
    const unanswered: string[] = [];
    const acknowledged: string[] = [];
    let slowest = 0;
    let running = true;
    let n = 0;
    const client = async () => {
      while (running) {
        const started = Date.now();
        const begunAfter = recovered;
        const write = n % 2 === 0;
        const name = `outage-${n++}`;
        const res = await fetch(`${base}/api/tenancy/tenants/${write ? "" : "?limit=5"}`, write
          ? { method: "POST", headers, body: JSON.stringify({ name, slug: name }) }
          : { headers }).catch((err: Error & { cause?: unknown }) => { unanswered.push(`${write ? "POST" : "GET"}: ${String(err.cause ?? err)}`); return undefined; });
        slowest = Math.max(slowest, Date.now() - started);
        const status = res?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (begunAfter) after.set(status, (after.get(status) ?? 0) + 1);
        if (!res) continue;
        const body = await res.json().catch(() => ({})) as { id?: string; detail?: string };
        if (res.status === 201) acknowledged.push(body.id!);
        if (res.status === 503) {
          expect(res.headers.get("retry-after")).to.equal("5");
          expect(body.detail).to.equal("The database is unavailable; try again shortly.");
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const clients = [client(), client(), client(), client()];
    await eventually(async () => (acknowledged.length >= 20 ? true : undefined), "writes before the crash");

    await cluster.crash();
    // Unhealthy at once, and requests refused rather than left waiting.
    const health = await eventually(async () => {
      const res = await fetch(`${base}/health/`);
      return res.status === 500 ? res.json() : undefined;
    }, "health unhealthy");
    expect(health).to.have.property("database").that.matches(/^unavailable/);
    await eventually(async () => ((statuses.get(503) ?? 0) >= 8 ? true : undefined), "503s while the database is away");
    const live = await fetch(`${base}/health/live/`);
    expect(live.status).to.equal(200);

    await cluster.start();
    await eventually(async () => ((await fetch(`${base}/health/`)).status === 200 ? true : undefined), "healthy again");
    // Once healthy, every request begun succeeds: the pool mended itself, no restart.
    recovered = true;
    const mark = acknowledged.length;
    await eventually(async () => (acknowledged.length >= mark + 20 ? true : undefined), "writes after recovery");
    running = false;
    await Promise.all(clients);
    expect(server.child.exitCode, "the server kept running").to.equal(null);

    const seen = Object.fromEntries(statuses);
    const failures = server.out().split("\n").filter((l) => !/^Acquire connection error/.test(l)).filter((l, i, all) => /failed: /.test(l) || /failed: /.test(all[i - 1] ?? "") || /failed: /.test(all[i - 2] ?? "")).join("\n");
    expect(Object.keys(seen).map(Number).filter((s) => ![200, 201, 503].includes(s)), `${JSON.stringify(seen)}\n${unanswered.join("\n")}\n${failures}`).to.deep.equal([]);
    // A request waits for a connection at most DATABASE_POOL_TIMEOUT (3 s), plus its own work: none hung.
    expect(slowest, "slowest request, ms").to.be.below(30_000);
    expect([...after.keys()].filter((s) => s !== 200 && s !== 201), `answers to requests begun after recovery: ${JSON.stringify(Object.fromEntries(after))}`).to.deep.equal([]);

    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    try {
      const { rows } = await db.query("SELECT id::text FROM tenancy_tenant WHERE id = ANY($1::uuid[])", [acknowledged]);
      expect(rows.length, "acknowledged writes present after the crash").to.equal(acknowledged.length);
    } finally {
      await db.end();
    }
  });
});
