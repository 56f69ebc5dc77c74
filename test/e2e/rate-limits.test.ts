// Rate limits by cost, through real servers over the shared test database: app instances of
// their own with a tiny budget and no refill, so every figure is exact and nothing depends on
// time. The budget's edge (the last request that fits, then 429 with Retry-After and the
// RateLimit-* headers, in each API's error shape), what lists, GraphQL queries and writes cost,
// anonymous clients limited by address, one budget across instances (two server processes on
// PostgreSQL), and no headers with limits off. Each test has its own users and client addresses
// (X-Forwarded-For, trusted from loopback), so none spends another's budget.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../../runtime/config.js";
import { createApp } from "../../runtime/server.js";
import { RATE_LIMIT_DEFAULTS, type RateLimitSettings } from "../../runtime/http/rate-limits.js";
import { apis } from "../../generated/server.js";
import { startTestServer } from "../support/server.js";
import { eventually } from "../support/waiting.js";
import { uniq } from "./inventory/support.js";

const NS = "/wp-json/calendar/events/v1";
const servers: Server[] = [];

/** An app instance on the shared database with rate limits on; gives its base URL. */
async function instance(limits: Partial<RateLimitSettings>): Promise<string> {
  const { db } = await startTestServer();
  const rateLimits = { ...RATE_LIMIT_DEFAULTS, refill: 0, enabled: true, ...limits };
  const app = createApp(apis, db, { ...configFromEnv(), publicUrl: undefined, logRequests: false, rateLimits });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let lastAddress = 0;
/** A client address no other test uses (TEST-NET-2). */
const address = () => `198.51.100.${++lastAddress}`;

interface Reply { status: number; body: any; limit: string | null; remaining: string | null; reset: string | null; retryAfter: string | null; exposed: string | null }

async function send(url: string, init: { method?: string; token?: string; from?: string; json?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.token) headers.Authorization = `Token ${init.token}`;
  if (init.from) headers["X-Forwarded-For"] = init.from;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  const h = (name: string) => res.headers.get(name);
  return { status: res.status, body, limit: h("ratelimit-limit"), remaining: h("ratelimit-remaining"), reset: h("ratelimit-reset"), retryAfter: h("retry-after"), exposed: h("access-control-expose-headers") };
}

/** A user of the shared server with a token; gives the token and the user's id. */
async function person(): Promise<{ token: string; id: string }> {
  const { key, id } = await (await startTestServer()).user(uniq("rl"), { superuser: true });
  return { token: key, id };
}

/** What the database holds of a requester's bucket. */
async function bucket(name: string): Promise<{ tokens: number; admitted: boolean } | undefined> {
  const { db } = await startTestServer();
  return db("armature_rate_limits").where("bucket", name).first("tokens", "admitted");
}

/** The DRF answer to a request over budget, with the wait its Retry-After says. */
function expectDrfThrottled(r: Reply, remaining = "0"): void {
  expect(r.status, JSON.stringify(r.body)).to.equal(429);
  const wait = Number(r.retryAfter);
  expect(wait).to.be.within(1, 3600);
  expect(r.body).to.deep.equal({ detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? "" : "s"}.` });
  expect(r.remaining).to.equal(remaining);
}

describe("rate limits by cost", function () {
  this.timeout(240_000);

  after(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("serves exactly the budget, then answers 429 with Retry-After and the RateLimit headers, and charges nothing refused", async () => {
    const base = await instance({ budget: 5, read: 1, write: 3 });
    const { token, id } = await person();
    const seen: Array<[number, string | null, string | null]> = [];
    for (let i = 0; i < 5; i++) {
      const r = await send(`${base}/api/`, { token });
      seen.push([r.status, r.limit, r.remaining]);
    }
    expect(seen).to.deep.equal([[200, "5", "4"], [200, "5", "3"], [200, "5", "2"], [200, "5", "1"], [200, "5", "0"]]);
    const over = await send(`${base}/api/`, { token });
    expectDrfThrottled(over);
    expect(over.limit).to.equal("5");
    // With no refill the budget comes back whole when the bucket expires: Reset and Retry-After agree.
    expect(Number(over.reset)).to.equal(Number(over.retryAfter));
    expect(await bucket(`user:${id}`)).to.deep.equal({ tokens: 0, admitted: false });
    // Another user's budget is their own.
    const other = await send(`${base}/api/`, { token: (await person()).token });
    expect([other.status, other.remaining]).to.deep.equal([200, "4"]);
  });

  it("charges a write more than a read, an array body per element, and a refused write as much as an accepted one", async () => {
    const base = await instance({ budget: 20, read: 1, write: 3 });
    const { token, id } = await person();
    const bad = await send(`${base}/api/dcim/sites/`, { method: "POST", token, json: { name: "" } });
    expect([bad.status, bad.remaining]).to.deep.equal([400, "17"]);
    const bulk = await send(`${base}/api/dcim/sites/`, { method: "POST", token, json: [{ name: "" }, { name: "" }, { name: "" }] });
    expect([bulk.status, bulk.remaining]).to.deep.equal([400, "8"]);
    // 8 left: a write costing 9 is refused and takes nothing.
    const tooBig = await send(`${base}/api/dcim/sites/`, { method: "POST", token, json: [{}, {}, {}] });
    expectDrfThrottled(tooBig, "8");
    expect(await bucket(`user:${id}`)).to.deep.equal({ tokens: 8, admitted: false });
    const read = await send(`${base}/api/dcim/sites/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/`, { token });
    expect([read.status, read.remaining]).to.deep.equal([404, "7"]);
    // An action's array body is as many writes: a batch of addresses from a prefix that is not there.
    const batch = await send(`${base}/api/ipam/prefixes/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/available-ips/`, { method: "POST", token, json: [{}, {}] });
    expect([batch.status, batch.remaining]).to.deep.equal([404, "1"]);
  });

  it("prices a list by the page it asks for", async () => {
    const base = await instance({ budget: 1000, read: 1, pageRows: 10 });
    const { token } = await person();
    const small = await send(`${base}/api/dcim/sites/?limit=5`, { token });
    expect([small.status, small.remaining]).to.deep.equal([200, "998"]);
    const big = await send(`${base}/api/dcim/sites/?limit=500`, { token });
    expect([big.status, big.remaining]).to.deep.equal([200, "947"]);
    // The default page (PAGINATE_COUNT 50) and `limit=0` (MAX_PAGE_SIZE 1000).
    const plain = await send(`${base}/api/dcim/sites/`, { token });
    expect(plain.remaining).to.equal("941");
    const all = await send(`${base}/api/dcim/sites/?limit=0`, { token });
    expect(all.remaining).to.equal("840");
    // The calendar's archive by its per_page.
    const events = await send(`${base}${NS}/events?per_page=40`, { token });
    expect([events.status, events.remaining]).to.deep.equal([200, "835"]);
  });

  it("prices a GraphQL query by the fields it selects, fragments where they are spread", async () => {
    const base = await instance({ budget: 1000, read: 1, field: 1 });
    const { token } = await person();
    const plain = await send(`${base}/api/graphql/`, { method: "POST", token, json: { query: "{ sites { id name } }" } });
    expect([plain.status, plain.remaining], JSON.stringify(plain.body)).to.deep.equal([200, "996"]);
    const nested = await send(`${base}/api/graphql/`, {
      method: "POST", token,
      json: { query: "query { devices { name site { slug } ...F } sites { ...S } } fragment F on DeviceType { device_role { slug } } fragment S on SiteType { slug }" },
    });
    // devices, name, site, slug, device_role, slug, sites, slug: 8 fields and the read.
    expect([nested.status, nested.remaining], JSON.stringify(nested.body)).to.deep.equal([200, "987"]);
    const wide = await send(`${base}/api/graphql/`, { method: "POST", token, json: { query: `{ sites { ${Array.from({ length: 40 }, (_, i) => `a${i}: name`).join(" ")} } }` } });
    expect([wide.status, wide.remaining]).to.deep.equal([200, "945"]);
  });

  it("prices a GraphQL mutation as the writes it makes, a bulk one per element, as REST would", async () => {
    const base = await instance({ budget: 1000, read: 1, write: 10, field: 1 });
    const { token } = await person();
    const one = uniq("rl-gql");
    const single = await send(`${base}/api/graphql/`, { method: "POST", token, json: { query: `mutation { create_tenant(input: { name: "${one}", slug: "${one}" }) { id } }` } });
    // One write (10) and two fields: what the same create costs through REST, and its fields.
    expect([single.status, single.remaining], JSON.stringify(single.body)).to.deep.equal([200, "988"]);
    expect(single.body.data.create_tenant.id).to.be.a("string");
    const names = [uniq("rl-gql"), uniq("rl-gql"), uniq("rl-gql")];
    const bulk = await send(`${base}/api/graphql/`, {
      method: "POST", token,
      json: { query: "mutation Bulk($t: [TenantInput!]!) { create_tenants(input: $t) { id } }", operationName: "Bulk", variables: { t: names.map((name) => ({ name, slug: name })) } },
    });
    expect([bulk.status, bulk.remaining], JSON.stringify(bulk.body)).to.deep.equal([200, "956"]);
    expect(bulk.body.data.create_tenants).to.have.length(3);
  });

  it("limits anonymous clients by address, across both APIs, in each API's error shape", async () => {
    const base = await instance({ budget: 3, read: 1, pageRows: 0 });
    const from = address();
    for (const remaining of ["2", "1", "0"]) {
      const r = await send(`${base}${NS}/events`, { from });
      expect([r.status, r.limit, r.remaining]).to.deep.equal([200, "3", remaining]);
    }
    const wp = await send(`${base}${NS}/events`, { from });
    expect(wp.status).to.equal(429);
    expect(wp.body).to.deep.equal({ code: "rest_too_many_requests", message: `Too many requests. Try again in ${wp.retryAfter} seconds.`, data: { status: 429 } });
    expect(wp.remaining).to.equal("0");
    // A browser script of an allowed origin may read them, as WordPress lets it read its totals.
    expect(wp.exposed).to.include("RateLimit-Remaining").and.include("Retry-After");
    expectDrfThrottled(await send(`${base}/api/`, { from }));
    // Another address, and a user from the same address, spend budgets of their own.
    expect((await send(`${base}${NS}/events`, { from: address() })).remaining).to.equal("2");
    expect((await send(`${base}/api/`, { from, token: (await person()).token })).status).to.equal(200);
    expect(await bucket(`address:${from}`)).to.deep.equal({ tokens: 0, admitted: false });
  });

  it("sends the RateLimit headers on every kind of API answer: pages, documents, errors, refusals", async () => {
    const base = await instance({ budget: 10_000, read: 1 });
    const { token } = await person();
    const html = { Accept: "text/html" };
    const asked: Array<[string, string, Record<string, string>, string?]> = [
      ["GET", "/api/", {}], ["OPTIONS", "/api/dcim/sites/", {}], ["GET", "/api/dcim/sites/", html], ["GET", "/api/login/", html],
      ["GET", "/api/docs/", html], ["GET", "/api/swagger/", { Accept: "application/json" }], ["GET", "/api/graphql/", html],
      ["GET", "/api/no/such/path/", {}], ["PUT", "/api/status/", {}], ["POST", "/api/dcim/sites/", { "Content-Type": "application/json" }, "{not json"],
      ["GET", `${NS}/events`, {}], ["GET", `${NS}/no-such-route`, {}], ["OPTIONS", `${NS}/events`, {}], ["GET", `${NS}/doc`, html],
      // Refused before the requester is known: the API root without its slash, a version not
      // served, an unreadable body, bodies over BODY_LIMIT (1mb).
      ["GET", "/api", {}], ["GET", "/api/dcim/sites/", { Accept: "application/json; version=9.9" }],
      ["POST", `${NS}/events`, { "Content-Type": "application/json" }, "{not json"],
      ["POST", "/api/dcim/sites/", { "Content-Type": "application/json" }, "x".repeat(1_100_000)],
      ["POST", `${NS}/events`, { "Content-Type": "application/json" }, "x".repeat(1_100_000)],
    ];
    const missing: string[] = [];
    const statuses: number[] = [];
    for (const [method, path, headers, body] of asked) {
      const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Token ${token}`, ...headers }, body, redirect: "manual" });
      await res.arrayBuffer();
      statuses.push(res.status);
      const got = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => res.headers.get(h));
      if (got.some((v) => v === null) || got[0] !== "10000") missing.push(`${method} ${path} ${res.status}: ${JSON.stringify(got)}`);
    }
    expect(missing).to.deep.equal([]);
    // What each was answered, that the list is the kinds it says.
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 404, 405, 400, 200, 404, 200, 200, 302, 406, 400, 413, 413]);
  });

  it("charges a request with refused credentials to its address", async () => {
    const base = await instance({ budget: 2, read: 1 });
    const from = address();
    const first = await send(`${base}/api/`, { from, token: "0".repeat(40) });
    expect([first.status, first.remaining]).to.deep.equal([403, "1"]);
    const second = await send(`${base}${NS}/events`, { from, token: "0".repeat(40) });
    expect([second.status, second.remaining]).to.deep.equal([401, "0"]);
    expectDrfThrottled(await send(`${base}/api/`, { from, token: "0".repeat(40) }));
  });

  it("is one budget across instances sharing the database", async () => {
    const [a, b] = [await instance({ budget: 4, read: 1 }), await instance({ budget: 4, read: 1 })];
    const { token } = await person();
    const remaining = [];
    for (const base of [a, b, a, b]) remaining.push((await send(`${base}/api/`, { token })).remaining);
    expect(remaining).to.deep.equal(["3", "2", "1", "0"]);
    expectDrfThrottled(await send(`${a}/api/`, { token }));
    expectDrfThrottled(await send(`${b}/api/`, { token }));
  });

  it("refills a bucket by the time since its last charge, up to the budget, and deletes buckets the refill made whole", async () => {
    const base = await instance({ budget: 5, read: 1, refill: 1 });
    const { db } = await startTestServer();
    const { token, id } = await person();
    expect((await send(`${base}/api/`, { token })).remaining).to.equal("4");
    // Spent ten seconds ago: a second a unit has given back more than the whole budget.
    await db("armature_rate_limits").where("bucket", `user:${id}`).update({ tokens: 0, at: db.raw("now() - interval '10 seconds'") });
    const refilled = await send(`${base}/api/`, { token });
    expect([refilled.status, refilled.remaining]).to.deep.equal([200, "4"]);
    // Reset: when the unit just spent is back, at a unit a second.
    expect(refilled.reset).to.equal("1");
    const gone = [address(), address()].map((a) => `address:${a}`);
    await db("armature_rate_limits").insert(gone.map((bucket) => ({ bucket, tokens: 5, at: "2000-01-01T00:00:00Z", expires: "2000-01-01T00:00:00Z", admitted: true })));
    await send(`${base}/api/`, { token });
    expect(await db("armature_rate_limits").whereIn("bucket", gone).select("bucket")).to.deep.equal([]);
  });

  it("sends no RateLimit headers and charges nothing when limits are off (the default)", async () => {
    const { url, token } = await startTestServer();
    const { db } = await startTestServer();
    const before = await db("armature_rate_limits").count({ n: "*" }).first();
    for (const r of [await send(`${url}/api/`, { token }), await send(`${url}${NS}/events`), await send(`${url}/api/dcim/sites/?limit=500`, { token })]) {
      expect(r.status).to.equal(200);
      expect([r.limit, r.remaining, r.reset, r.retryAfter]).to.deep.equal([null, null, null, null]);
    }
    expect(configFromEnv({}).rateLimits.enabled).to.equal(undefined);
    expect(await db("armature_rate_limits").count({ n: "*" }).first()).to.deep.equal(before);
  });

  describe("two server processes on PostgreSQL", () => {
    const children: ChildProcess[] = [];

    after(() => {
      for (const c of children) if (c.exitCode === null && c.pid) process.kill(-c.pid, "SIGKILL");
    });

    /** `armature serve` on the shared test database with a budget of 4 and no refill; gives its URL. */
    async function serve(): Promise<string> {
      const env: NodeJS.ProcessEnv = {
        ...process.env, LOG_REQUESTS: "0", QUEUE_WORKER: "0",
        RATE_LIMIT_ENABLED: "1", RATE_LIMIT_BUDGET: "4", RATE_LIMIT_REFILL: "0", RATE_LIMIT_COST_READ: "1",
      };
      delete env.PORT;
      delete env.HOST;
      const child = spawn(process.execPath, ["--import", "tsx", "bin/armature.ts", "serve", "--port", "0", "--no-migrate"], { env, detached: true });
      children.push(child);
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      return eventually(async () => /Armature is serving[^\n]*\n[^\n]*?(http:\/\/[^/\s]+)\//.exec(out)?.[1] ?? (child.exitCode !== null ? Promise.reject(new Error(out)) : undefined), `serve: ${out}`);
    }

    it("spends one budget whichever process answers", async function () {
      if (!process.env.DATABASE_URL) this.skip();
      const [a, b] = await Promise.all([serve(), serve()]);
      const { token } = await person();
      const remaining = [];
      for (const base of [a, b, b, a]) remaining.push((await send(`${base}/api/`, { token })).remaining);
      expect(remaining).to.deep.equal(["3", "2", "1", "0"]);
      expectDrfThrottled(await send(`${a}/api/`, { token }));
      expectDrfThrottled(await send(`${b}/api/`, { token }));
    });
  });
});
