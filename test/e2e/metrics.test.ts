// `/metrics` through the real command line and server: off by default (404); on, it asks for
// what the inventory API authenticates (403 without a token or with a wrong one, DRF's words);
// after known traffic its Prometheus text, read by a strict parser, counts exactly that traffic
// by route template and status, the change records the database holds, the webhook deliveries
// by result and the job runs by job. Under `serve --workers 2` (PostgreSQL: the embedded
// database serves one process) the series are the whole server's: requests answered by both
// workers add up. PostgreSQL when DATABASE_URL is set (a database of this file's own, migrated
// by the command line), else PGlite in a copy of the run's migrated template (test/support/data-dirs.ts).
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eventually, freePort } from "../support/waiting.js";
import { dataDirFrom, TEMPLATE_ADMIN } from "../support/data-dirs.js";
import { parsePrometheus, total, type Family } from "../support/prometheus.js";
import { admin } from "../support/postgres.js";

const postgresUrl = process.env.DATABASE_URL;
const TOKEN = TEMPLATE_ADMIN.token;
const SITES = "/api/dcim/sites/";
/** The jobs API of records and runs by id (1.2, the default version, lists job classes). */
const V13 = { Accept: "application/json; version=1.3" };

interface Scratch { env: NodeJS.ProcessEnv; drop(): Promise<void> }

/** A migrated database of this file's own with the administrator and TOKEN. */
async function migratedDatabase(): Promise<Scratch> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_REQUESTS: "0", JOBS_ROOT: `${resolve("jobs")}:${resolve("test/jobs")}` };
  for (const name of ["PORT", "HOST", "METRICS_ENABLED", "METRICS_AUTHENTICATED", "METRICS_AUTHENTICATION"]) delete env[name];
  if (!postgresUrl) {
    const dataDir = await dataDirFrom("migrated", "armature-metrics-");
    delete env.DATABASE_URL;
    return { env: { ...env, DATA_DIR: dataDir, MEDIA_ROOT: join(dataDir, "media") }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const url = new URL(postgresUrl);
  const name = `metrics_${url.pathname.slice(1)}_${process.pid}`;
  await admin(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(postgresUrl!, `CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  const mediaRoot = mkdtempSync(join(tmpdir(), "armature-metrics-media-"));
  const scratch = {
    env: { ...env, DATABASE_URL: url.href, MEDIA_ROOT: mediaRoot },
    drop: async () => {
      rmSync(mediaRoot, { recursive: true, force: true });
      await admin(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
  try {
    await cli(scratch.env, "createsuperuser", "--username", TEMPLATE_ADMIN.username, "--password", TEMPLATE_ADMIN.password, "--token", TOKEN);
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return scratch;
}

interface Process { child: ChildProcess; out(): string; exited: Promise<number | null> }

function armature(env: NodeJS.ProcessEnv, ...args: string[]): Process {
  // Its own process group, so that stopping it stops cluster workers too.
  const child = spawn(process.execPath, ["--import", "tsx", "bin/armature.ts", ...args], { env, detached: true });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  return { child, out: () => out, exited };
}

/** `armature worker` with its own `/metrics` on a free port, once it says where. */
async function metricsWorker(env: NodeJS.ProcessEnv): Promise<Served> {
  const port = await freePort();
  const p = armature({ ...env, PORT: String(port), METRICS_ENABLED: "1" }, "worker");
  await Promise.race([
    eventually(async () => (/metrics: http:/.test(p.out()) ? true : undefined), "the worker's metrics", 200_000),
    p.exited.then((code) => Promise.reject(new Error(`exited ${code}: ${p.out()}`))),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (p.child.exitCode === null) process.kill(-p.child.pid!, "SIGTERM");
      await p.exited;
    },
  };
}

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<void> {
  const p = armature(env, ...args);
  const code = await p.exited;
  if (code !== 0) throw new Error(`armature ${args[0]} exited ${code}: ${p.out()}`);
}

interface Served { url: string; stop(): Promise<void> }

/** `serve` on a free port, once it says it serves; stopped with SIGTERM, its workers with it. */
async function serve(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Served> {
  const port = await freePort();
  const p = armature({ ...env, PORT: String(port) }, "serve", ...args);
  await Promise.race([
    eventually(async () => (/Armature is serving/.test(p.out()) ? true : undefined), "the server to serve", 200_000),
    p.exited.then((code) => Promise.reject(new Error(`exited ${code} before serving: ${p.out()}`))),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (p.child.exitCode === null) process.kill(-p.child.pid!, "SIGTERM");
      await p.exited;
    },
  };
}

interface Answer { status: number; type: string; text: string; json(): any }

/** A request on a connection of its own (a cluster hands out connections, not requests). */
function request(url: string, opts: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const headers: Record<string, string> = { Connection: "close", ...(opts.token ? { Authorization: `Token ${opts.token}` } : {}), ...opts.headers };
  if (body) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": String(body.length) });
  return new Promise((done, fail) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        done({ status: res.statusCode!, type: String(res.headers["content-type"]), text, json: () => JSON.parse(text) });
      });
    });
    req.on("error", fail);
    req.end(body);
  });
}

async function scrape(server: Served, token: string | undefined = TOKEN): Promise<Map<string, Family>> {
  const res = await request(`${server.url}/metrics`, { token });
  expect(res.status, res.text).to.equal(200);
  expect(res.type).to.equal("text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheus(res.text);
}

/** How much each figure grew between two scrapes. */
const grew = (before: Map<string, Family>, after: Map<string, Family>) => (name: string, labels: Record<string, string> = {}) =>
  total(after, name, labels) - total(before, name, labels);

/** A receiver of webhook deliveries: `/ok` answers 204, anything else 500. */
async function receiver(): Promise<{ url: string; got: string[]; close(): Promise<void> }> {
  const got: string[] = [];
  const rx = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      got.push(req.url!);
      res.writeHead(req.url === "/ok" ? 204 : 500).end();
    });
  });
  await new Promise<void>((done) => rx.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(rx.address() as AddressInfo).port}`, got, close: () => new Promise((done) => rx.close(() => done())) };
}

describe(`metrics: /metrics through the real server (${postgresUrl ? "postgresql" : "pglite"})`, function () {
  this.timeout(900_000);
  let db: Scratch;

  before(async () => {
    db = await migratedDatabase();
  });
  after(async () => db?.drop());

  it("is not served unless METRICS_ENABLED: the site's 404", async () => {
    const server = await serve({ ...db.env, METRICS_ENABLED: "0" }, "--workers", "1");
    try {
      for (const path of ["/metrics", "/metrics/"]) {
        const res = await request(`${server.url}${path}`, { token: TOKEN });
        expect(res.status, path).to.equal(404);
        expect(res.json()).to.deep.equal({ detail: "Not found." });
      }
    } finally {
      await server.stop();
    }
  });

  describe("METRICS_ENABLED=1", () => {
    let server: Served;
    let rx: Awaited<ReturnType<typeof receiver>>;

    before(async () => {
      rx = await receiver();
      // One attempt a task: a refused delivery ends failed at once rather than after retries.
      server = await serve({ ...db.env, METRICS_ENABLED: "1", QUEUE_MAX_ATTEMPTS: "1" }, "--workers", "1");
    });
    after(async () => {
      await server?.stop();
      await rx?.close();
    });

    it("asks for the inventory API's authentication by default: 403 in DRF's words without a token or with a wrong one", async () => {
      const none = await request(`${server.url}/metrics`);
      expect(none.status).to.equal(403);
      expect(none.json()).to.deep.equal({ detail: "Authentication credentials were not provided." });
      const wrong = await request(`${server.url}/metrics/`, { token: "f".repeat(40) });
      expect(wrong.status).to.equal(403);
      expect(wrong.json()).to.deep.equal({ detail: "Invalid token" });
      const families = await scrape(server);
      expect(total(families, "armature_processes")).to.equal(1);
      // prom-client's process metrics.
      expect(families.get("process_cpu_seconds_total")?.type).to.equal("counter");
      expect(families.get("nodejs_heap_size_used_bytes")?.type).to.equal("gauge");
      expect(total(families, "armature_http_requests_total", { api: "none", route: "/metrics", status: "403" })).to.equal(2);
    });

    it("counts requests by route template and status, change records, webhook deliveries and job runs", async () => {
      const hook = (name: string, path: string) => request(`${server.url}/api/extras/webhooks/`, {
        method: "POST", token: TOKEN, body: { name, content_types: ["dcim.site"], type_create: true, payload_url: `${rx.url}${path}` },
      });
      expect((await hook("metrics ok", "/ok")).status).to.equal(201);
      expect((await hook("metrics refused", "/refuse")).status).to.equal(201);
      const jobs = (await request(`${server.url}/api/extras/jobs/?limit=1000`, { token: TOKEN, headers: V13 })).json().results as Array<{ id: string; job_class_name: string; module_name: string }>;
      const tagWriter = jobs.find((j) => j.job_class_name === "TagWriter" && j.module_name === "api_test_jobs")!;
      expect((await request(`${server.url}/api/extras/jobs/${tagWriter.id}/`, { method: "PATCH", token: TOKEN, body: { enabled: true }, headers: V13 })).status).to.equal(200);
      const changesBefore = (await request(`${server.url}/api/extras/object-changes/?limit=1`, { token: TOKEN })).json().count as number;
      const before = await scrape(server);

      for (let i = 0; i < 3; i++) expect((await request(`${server.url}${SITES}`, { token: TOKEN })).status).to.equal(200);
      expect((await request(`${server.url}${SITES}00000000-0000-4000-8000-000000000000/`, { token: TOKEN })).status).to.equal(404);
      expect((await request(`${server.url}${SITES}`, { method: "POST", token: TOKEN, body: { name: "m" } })).status).to.equal(400);
      const created = await request(`${server.url}${SITES}`, { method: "POST", token: TOKEN, body: { name: "metrics-site", slug: "metrics-site", status: "active" } });
      expect(created.status, created.text).to.equal(201);
      expect((await request(`${server.url}/api/no/such/path/`, { token: TOKEN })).status).to.equal(404);
      expect((await request(`${server.url}/wp-json/calendar/events/v1/events`)).status).to.equal(200);
      const run = async (data: Record<string, unknown>) => {
        const res = await request(`${server.url}/api/extras/jobs/${tagWriter.id}/run/`, { method: "POST", token: TOKEN, body: { data }, headers: V13 });
        expect(res.status, res.text).to.equal(201);
        const id = res.json().job_result.id as string;
        return eventually(async () => {
          const status = (await request(`${server.url}/api/extras/job-results/${id}/`, { token: TOKEN })).json().status?.value as string;
          return ["completed", "failed", "errored"].includes(status) ? status : undefined;
        }, `job result ${id}`);
      };
      expect(await run({ name: "metrics-tag" })).to.equal("completed");
      expect(await run({ name: "metrics-tag-2", fail: true })).to.equal("errored");
      await eventually(async () => (rx.got.length >= 2 ? true : undefined), "both deliveries");

      // Counted when each attempt was recorded, a moment after the receiver answered.
      const after = await eventually(async () => {
        const now = await scrape(server);
        return total(now, "armature_webhook_deliveries_total") - total(before, "armature_webhook_deliveries_total") >= 2 ? now : undefined;
      }, "the deliveries counted");
      const delta = grew(before, after);
      const requests = (route: string, method: string, status: string) => delta("armature_http_requests_total", { api: "inventory", route, method, status });
      expect(requests(SITES, "GET", "200")).to.equal(3);
      expect(requests(`${SITES}{id}/`, "GET", "404")).to.equal(1);
      expect(requests(SITES, "POST", "400")).to.equal(1);
      expect(requests(SITES, "POST", "201")).to.equal(1);
      expect(requests("/api/extras/jobs/{id}/run/", "POST", "201")).to.equal(2);
      // A path no route of the table serves: its API's, no raw path as a label.
      expect(requests("", "GET", "404")).to.equal(1);
      expect(JSON.stringify([...after.values()])).not.to.include("00000000-0000-4000-8000-000000000000").and.not.to.include("/no/such/");
      expect(delta("armature_http_requests_total", { api: "calendar", route: "/wp-json/calendar/events/v1/events", method: "GET", status: "200" })).to.equal(1);
      expect(delta("armature_http_request_duration_seconds_count", { api: "inventory", route: SITES, method: "GET", status: "200" })).to.equal(3);
      expect(delta("armature_http_request_size_bytes_sum", { api: "inventory", route: SITES, method: "POST" })).to.equal(
        JSON.stringify({ name: "m" }).length + JSON.stringify({ name: "metrics-site", slug: "metrics-site", status: "active" }).length);
      expect(delta("armature_http_response_size_bytes_sum", { api: "inventory", route: SITES, method: "POST" })).to.be.greaterThan(created.text.length);

      // The site, and the tag of the run that completed; the failed run's tag was rolled back.
      const changesAfter = (await request(`${server.url}/api/extras/object-changes/?limit=1`, { token: TOKEN })).json().count as number;
      expect(changesAfter - changesBefore).to.equal(2);
      expect(delta("armature_change_records_total", { api: "inventory" })).to.equal(2);
      expect(delta("armature_change_records_total", { api: "inventory", action: "create" })).to.equal(2);

      expect(delta("armature_webhook_deliveries_total", { result: "delivered" })).to.equal(1);
      expect(delta("armature_webhook_deliveries_total", { result: "refused" })).to.equal(1);
      expect(delta("armature_queue_attempts_total", { kind: "webhook", outcome: "succeeded" })).to.equal(1);
      expect(delta("armature_queue_attempts_total", { kind: "webhook", outcome: "failed" })).to.equal(1);
      expect(delta("armature_queue_tasks_ended_total", { kind: "webhook", status: "failed" })).to.equal(1);
      expect(delta("armature_queue_tasks_ended_total", { kind: "job", status: "succeeded" })).to.equal(2);

      const job = "local/api_test_jobs/TagWriter";
      expect(delta("armature_jobs_started_total", { job })).to.equal(2);
      expect(delta("armature_jobs_finished_total", { job, status: "completed" })).to.equal(1);
      expect(delta("armature_jobs_finished_total", { job, status: "errored" })).to.equal(1);
      expect(delta("armature_jobs_failed_total", { job })).to.equal(1);

      expect(delta("armature_db_statements_total")).to.be.greaterThan(0);
      expect(total(after, "armature_db_pool_max")).to.be.greaterThan(0);
      expect(total(after, "armature_database_up")).to.equal(1);
      expect(after.get("armature_queue_tasks")?.type).to.equal("gauge");
    });
  });

  it("under serve --workers 2 the series are both workers' together", async function () {
    if (!postgresUrl) this.skip(); // the embedded database belongs to one process: the CLI refuses --workers 2 on it
    // Nautobot's guide's spelling of the switch, here turning authentication off.
    const server = await serve({ ...db.env, METRICS_ENABLED: "1", METRICS_AUTHENTICATION: "0" }, "--workers", "2");
    try {
      const before = await scrape(server, undefined);
      expect(total(before, "armature_processes")).to.equal(2);
      const reads = 20;
      for (let i = 0; i < reads; i++) expect((await request(`${server.url}${SITES}`, { token: TOKEN })).status).to.equal(200);
      const created = await request(`${server.url}/api/dcim/regions/`, { method: "POST", token: TOKEN, body: { name: "metrics-region", slug: "metrics-region" } });
      expect(created.status, created.text).to.equal(201);
      // Each scrape is answered by one worker or the other; every one of them sees the whole.
      for (let i = 0; i < 4; i++) {
        const after = await scrape(server, undefined);
        const delta = grew(before, after);
        expect(delta("armature_http_requests_total", { api: "inventory", route: SITES, method: "GET", status: "200" })).to.equal(reads);
        expect(delta("armature_change_records_total", { api: "inventory", action: "create" })).to.equal(1);
        expect(total(after, "armature_processes")).to.equal(2);
        // Read from the database once per scrape, not summed over the workers.
        expect(total(after, "armature_database_up")).to.equal(1);
      }
    } finally {
      await server.stop();
    }
  });

  it("armature worker serves /metrics of its own: the deliveries it makes are counted there, not by a server that runs no worker", async function () {
    if (!postgresUrl) this.skip(); // two processes on one database: the embedded one belongs to one
    const rx = await receiver();
    const server = await serve({ ...db.env, METRICS_ENABLED: "1", QUEUE_WORKER: "0" }, "--workers", "1");
    const worker = await metricsWorker(db.env);
    try {
      const hook = await request(`${server.url}/api/extras/webhooks/`, {
        method: "POST", token: TOKEN, body: { name: "metrics worker", content_types: ["dcim.region"], type_create: true, payload_url: `${rx.url}/ok` },
      });
      expect(hook.status, hook.text).to.equal(201);
      expect((await request(`${worker.url}/metrics`)).status).to.equal(403);
      const [serverBefore, workerBefore] = [await scrape(server), await scrape(worker)];
      const created = await request(`${server.url}/api/dcim/regions/`, { method: "POST", token: TOKEN, body: { name: "metrics-worker-region", slug: "metrics-worker-region" } });
      expect(created.status, created.text).to.equal(201);
      // The delivery is counted as it is made, its attempt once recorded after it, and the
      // change record once its transaction committed: each may lag the answer a little.
      const workerAfter = await eventually(async () => {
        const now = await scrape(worker);
        const grown = grew(workerBefore, now);
        return grown("armature_webhook_deliveries_total", { result: "delivered" }) > 0 && grown("armature_queue_attempts_total", { kind: "webhook", outcome: "succeeded" }) > 0 ? now : undefined;
      }, "the worker's delivery and its attempt counted");
      expect(grew(workerBefore, workerAfter)("armature_webhook_deliveries_total", { result: "delivered" })).to.equal(1);
      expect(grew(workerBefore, workerAfter)("armature_queue_attempts_total", { kind: "webhook", outcome: "succeeded" })).to.equal(1);
      const serverAfter = await eventually(async () => {
        const now = await scrape(server);
        return grew(serverBefore, now)("armature_change_records_total", { api: "inventory", action: "create" }) > 0 ? now : undefined;
      }, "the server's change record counted");
      expect(grew(serverBefore, serverAfter)("armature_webhook_deliveries_total")).to.equal(0);
      expect(grew(serverBefore, serverAfter)("armature_change_records_total", { api: "inventory", action: "create" })).to.equal(1);
      expect(rx.got).to.deep.equal(["/ok"]);
      expect((await request(`${worker.url}/api/dcim/regions/`, { token: TOKEN })).status).to.equal(404);
    } finally {
      await worker.stop();
      await server.stop();
      await rx.close();
    }
  });
});
