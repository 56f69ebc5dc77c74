// The server process as an operator meets it, through the real command line: SIGTERM lets a
// write in flight finish and answer before the process exits 0; instances started together
// on an empty database all come up (migrations, the admin and the demo data happen once);
// a busy port is a clear error and a non-zero exit; a second process on an embedded data
// directory in use refuses to start, and a killed holder never leaves it locked. The server
// answers, logs each request as a JSON line without secrets, tells its liveness and readiness,
// and serves from several workers on one port. Every process is the built command line under
// plain node (`npm start`): tsx would add two seconds of compiling to each. PostgreSQL when
// DATABASE_URL is set (a scratch database per test), otherwise PGlite in a temporary DATA_DIR;
// a test that needs no empty database starts from a copy of a migrated one: the run's template
// on PGlite (test/support/data-dirs.ts), one the command line migrated for the file on PostgreSQL.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { enqueue } from "../../runtime/queue/tasks.js";
import { WEBHOOK_TASK } from "../../runtime/features/webhooks/index.js";
import { builtCli } from "../support/build.js";
import { dataDirFrom, makeTemplates, TEMPLATE_ADMIN } from "../support/data-dirs.js";
import { eventually } from "../support/waiting.js";
import { admin } from "../support/postgres.js";

const postgresUrl = process.env.DATABASE_URL;
const TOKEN = TEMPLATE_ADMIN.token;

interface Scratch {
  env: NodeJS.ProcessEnv;
  /** The PGlite directory; undefined on PostgreSQL. */
  dataDir?: string;
  /** The PostgreSQL database; undefined on PGlite. */
  database?: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

let scratches = 0;

/**
 * Where a test's database starts. `empty`: nothing at all. `initialized`: a database never
 * migrated (on PGlite, initdb done). `migrated`: as `armature createsuperuser` leaves an empty
 * one, with the admin and TOKEN.
 */
type Start = "empty" | "initialized" | "migrated";

/** A database for one test: a new PostgreSQL database or a new PGlite directory, as `start` says. */
async function scratchDatabase(start: Start): Promise<Scratch> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_REQUESTS: "0" };
  delete env.PORT;
  delete env.HOST;
  if (!postgresUrl) {
    const prefix = "armature-process-";
    const dataDir = start === "empty" ? mkdtempSync(join(tmpdir(), prefix)) : await dataDirFrom(start, prefix);
    delete env.DATABASE_URL;
    return {
      env: { ...env, DATA_DIR: dataDir },
      dataDir,
      open: () => openDatabase({ dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const template = start === "migrated" ? await migratedPostgres() : undefined;
  const url = new URL(postgresUrl);
  const name = `${url.pathname.slice(1)}_process_${process.pid}_${++scratches}`;
  await admin(postgresUrl!, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template.database}"` : ""}`);
  url.pathname = `/${name}`;
  return {
    env: { ...env, DATABASE_URL: url.href },
    database: name,
    open: () => openDatabase({ databaseUrl: url.href, dataDir: "" }),
    drop: async () => { await admin(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); },
  };
}

/** On PostgreSQL, migrated with the admin and TOKEN by the command line once for the file: the template of each `migrated` database. */
let migrated: Promise<Scratch> | undefined;

function migratedPostgres(): Promise<Scratch> {
  migrated ??= (async () => {
    const template = await scratchDatabase("empty");
    await cli(template.env, "createsuperuser", "--username", TEMPLATE_ADMIN.username, "--password", TEMPLATE_ADMIN.password, "--token", TOKEN);
    return template;
  })();
  return migrated;
}

interface Armature {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves with the base URL once the process says it is serving. */
  serving: Promise<string>;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
/** The built command line, once the file's before hook has it. */
let cliPath: string | undefined;

/** The built command line under plain node, as `npm start` runs it (test/e2e/cli.test.ts starts `make run`'s tsx). */
function armature(env: NodeJS.ProcessEnv, ...args: string[]): Armature {
  if (!cliPath) throw new Error("the build is made in the file's before hook");
  return started([cliPath], env, args);
}

function started(entry: string[], env: NodeJS.ProcessEnv, args: string[]): Armature {
  // Its own process group, so a failing test can kill it whole, cluster workers included.
  const child = spawn(process.execPath, [...entry, ...args], { env, detached: true });
  children.add(child);
  let out = "";
  let err = "";
  let servingAt: ((url: string) => void) | undefined;
  const serving = new Promise<string>((resolve) => (servingAt = resolve));
  child.stdout!.on("data", (d) => {
    out += d;
    const url = /Armature is serving[^\n]*\n[^\n]*?(http:\/\/[^/\s]+)\//.exec(out)?.[1];
    if (url) servingAt!(url);
  });
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, out: () => out, err: () => err, serving, exited };
}

/** Runs a command to its end; rejects unless it exits 0. */
function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return ranToEnd(armature(env, ...args));
}

async function ranToEnd(p: Armature): Promise<string> {
  const code = await p.exited;
  if (code !== 0) throw new Error(`armature exited ${code}: ${p.out()}${p.err()}`);
  return p.out();
}

/** Resolves with the base URL, or rejects with the output when the process ends first. */
function servingOrExit(p: Armature): Promise<string> {
  return Promise.race([
    p.serving,
    p.exited.then((code) => Promise.reject(new Error(`exited ${code} before serving: ${p.out()}${p.err()}`))),
  ]);
}

function until(p: Armature, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(p.out())) resolve();
      else if (p.child.exitCode !== null) reject(new Error(`exited before printing ${pattern}: ${p.out()}${p.err()}`));
      else setTimeout(check, 20);
    };
    check();
  });
}

/** `promise`, or a failure naming `what` when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.on("error", (e: NodeJS.ErrnoException) => resolve(e.code));
  });
}

/** A GET on a new connection each time (a cluster hands out connections, not requests). */
async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers: { Connection: "close", ...headers } });
  return { status: res.status, body: await res.text() };
}

/** The JSON lines a process printed. */
function logLines(p: Armature): Array<Record<string, unknown>> {
  return p.out().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function status(base: string): Promise<number> {
  return (await fetch(`${base}/api/status/`, { headers: { Authorization: `Token ${TOKEN}` } })).status;
}

describe(`server process (${postgresUrl ? "postgresql" : "pglite"})`, function () {
  // A bound for hangs, not a speed check: each test starts processes that load the server and
  // open a database, which took over 30 s on a busy two-core machine.
  this.timeout(180000);
  let scratch: Scratch | undefined;

  before(async function () {
    // The build every process runs (tsc over the sources, once for the run) and the run's
    // templates, before any test's bound starts: on a busy machine making them took as long as
    // a whole test may.
    this.timeout(600000);
    const building = builtCli();
    if (!postgresUrl) await makeTemplates("initialized", "migrated");
    cliPath = await building;
  });

  after(async () => {
    await (await migrated?.catch(() => undefined))?.drop();
  });

  afterEach(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child.on("close", resolve));
        process.kill(-child.pid!, "SIGKILL");
        await closed;
      }
    }
    children.clear();
    await scratch?.drop();
    scratch = undefined;
  });

  describe("health, readiness, logs and workers", () => {
    it("answers under plain node: /health/ without credentials, readiness 200, one JSON log line per request with its fields and no token or password", async () => {
      scratch = await scratchDatabase("migrated");
      // `serve` logs requests unless LOG_REQUESTS says otherwise. Three failed passwords of a
      // user from one address throttle the next attempt, so every outcome is logged below.
      const env: NodeJS.ProcessEnv = { ...scratch.env, AUTH_FAILURE_LIMIT: "3" };
      delete env.LOG_REQUESTS;
      const server = armature(env, "serve", "--port", "0");
      const base = await servingOrExit(server);

      const password = "never-in-a-log-0451";
      const basic = `Basic ${Buffer.from(`logged:${password}`).toString("base64")}`;
      const wrongToken = "fedcba9876543210fedcba9876543210fedcba98";
      const sent: Array<{ res: Response; method: string; path: string; status: number; user: string | null }> = [];
      const send = async (method: string, path: string, status: number, user: string | null, init: RequestInit = {}) => {
        const res = await fetch(`${base}${path}`, { method, ...init });
        expect(res.status, `${method} ${path}: ${await res.clone().text()}`).to.equal(status);
        sent.push({ res, method, path: path.split("?")[0], status, user });
        return res;
      };
      const health = await send("GET", "/health/", 200, null);
      expect(await health.json()).to.deep.equal({ database: "working" });
      const live = await send("GET", "/health/live/", 200, null);
      expect(await live.json()).to.deep.equal({ process: "working" });
      const ready = await send("GET", "/health/ready/", 200, null);
      expect(await ready.json()).to.deep.equal({ database: "working", migrations: "working" });
      const json = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" };
      await send("GET", `/api/dcim/sites/?q=${password}`, 200, "admin", { headers: json });
      await send("POST", "/api/users/users/", 201, "admin", { headers: json, body: JSON.stringify({ username: "logged", password, is_superuser: true }) });
      const provisioned = await send("POST", "/api/users/tokens/", 201, "logged", { headers: { Authorization: basic, "Content-Type": "application/json" }, body: "{}" });
      const newKey = ((await provisioned.json()) as { key: string }).key;
      await send("POST", "/api/login/", 403, null, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `username=logged&password=${password}-wrong` });
      await send("GET", "/api/dcim/sites/", 403, null, { headers: { Authorization: `Token ${wrongToken}` } });
      await send("GET", "/wp-json/calendar/events/v1/events", 200, null);

      // A line is written once its response is done, which may be just after the client has it.
      const lines = await eventually(async () => {
        const byId = new Map(logLines(server).map((l) => [l.request_id, l]));
        const found = sent.map((s) => byId.get(s.res.headers.get("x-request-id")));
        return found.every((l) => l !== undefined) ? found : undefined;
      }, "a log line for every request");
      for (const [i, line] of lines.entries()) {
        const { method, path, status, user } = sent[i];
        expect(line).to.have.keys("time", "level", "pid", "method", "path", "status", "duration_ms", "user", "request_id", "msg");
        expect(line).to.deep.include({ level: status >= 400 ? "warn" : "info", method, path, status, user, msg: "request" });
        expect(new Date(line!.time as string).toISOString()).to.equal(line!.time);
        expect(line!.duration_ms).to.be.a("number");
      }
      // Security events beside them: each password tried, by whom, from where, how it ended.
      const security = await eventually(async () => {
        const found = logLines(server).filter((l) => l.msg === "security");
        return found.length >= 2 ? found : undefined;
      }, "security events");
      const events = security.map(({ event, via, outcome, user, address, level }) => ({ event, via, outcome, user, address, level }));
      expect(events).to.deep.include({ event: "password", via: "token provisioning", outcome: "success", user: "logged", address: "127.0.0.1", level: "info" });
      expect(events).to.deep.include({ event: "password", via: "login form", outcome: "failure", user: "logged", address: "127.0.0.1", level: "warn" });

      // The other outcomes: a login that succeeds, provisioning refused, then throttled.
      const form = (pw: string) => fetch(`${base}/api/login/`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `username=logged&password=${pw}` });
      const provision = (auth: string) => fetch(`${base}/api/users/tokens/`, { method: "POST", headers: { Authorization: auth, "Content-Type": "application/json" }, body: "{}" });
      expect((await form(password)).status).to.equal(302);
      expect((await provision(`Basic ${Buffer.from(`logged:${password}-wrong`).toString("base64")}`)).status).to.equal(403);
      expect((await form(`${password}-wrong`)).status).to.equal(403);
      const throttled = await provision(basic);
      expect(throttled.status, await throttled.clone().text()).to.equal(429);
      const outcomes = await eventually(async () => {
        const found = logLines(server).filter((l) => l.msg === "security").map(({ via, outcome, user, address, level }) => ({ via, outcome, user, address, level }));
        return found.length >= 6 ? found : undefined;
      }, "the security events of the other outcomes");
      expect(outcomes.slice(2)).to.deep.equal([
        { via: "login form", outcome: "success", user: "logged", address: "127.0.0.1", level: "info" },
        { via: "token provisioning", outcome: "failure", user: "logged", address: "127.0.0.1", level: "warn" },
        { via: "login form", outcome: "failure", user: "logged", address: "127.0.0.1", level: "warn" },
        { via: "token provisioning", outcome: "throttled", user: "logged", address: "127.0.0.1", level: "warn" },
      ]);
      for (const secret of [TOKEN, password, basic.slice(6), wrongToken, newKey, "admin-password"]) {
        expect(server.out() + server.err()).to.not.include(secret);
      }
    });

    it("readiness: 503 while migrations are pending (serve --no-migrate), 200 once `armature migrate` applied them; health and liveness 200 throughout", async () => {
      scratch = await scratchDatabase("initialized");
      let server = armature(scratch.env, "serve", "--port", "0", "--no-migrate");
      let base = await servingOrExit(server);
      expect(server.out()).to.not.include("migrated:");
      expect(await get(`${base}/health/`)).to.deep.equal({ status: 200, body: '{"database":"working"}' });
      expect(await get(`${base}/health/live/`)).to.deep.equal({ status: 200, body: '{"process":"working"}' });
      const pending = await get(`${base}/health/ready/`);
      expect(pending.status).to.equal(503);
      expect(JSON.parse(pending.body)).to.deep.include({ database: "working" }).and.have.property("migrations").that.matches(/^\d+ pending$/);
      if (!postgresUrl) {
        // The embedded database belongs to one process: migrating waits for the server to stop.
        process.kill(-server.child.pid!, "SIGTERM");
        expect(await server.exited).to.equal(0);
      }
      expect(await ranToEnd(armature(scratch.env, "migrate"))).to.include("database up to date");
      if (!postgresUrl) {
        server = armature(scratch.env, "serve", "--port", "0", "--no-migrate");
        base = await servingOrExit(server);
      }
      await eventually(async () => ((await get(`${base}/health/ready/`)).status === 200 ? true : undefined), "ready once migrated");
      expect(await get(`${base}/health/ready/`)).to.deep.equal({ status: 200, body: '{"database":"working","migrations":"working"}' });
    });

    it("the database unreachable: health 500 and readiness 503 at once, liveness 200, an API request 503 with Retry-After", async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `postgres://armature@127.0.0.1:${await closedPort()}/none`, QUEUE_WORKER: "0", LOG_REQUESTS: "0" };
      delete env.PORT;
      delete env.HOST;
      const server = armature(env, "serve", "--port", "0", "--no-migrate", "--workers", "1");
      const base = await servingOrExit(server);
      expect(await get(`${base}/health/`)).to.deep.equal({ status: 500, body: '{"database":"unavailable (ECONNREFUSED)"}' });
      expect((await get(`${base}/health/live/`)).status).to.equal(200);
      const ready = await get(`${base}/health/ready/`);
      expect(ready.status).to.equal(503);
      expect(JSON.parse(ready.body)).to.deep.equal({ database: "unavailable (ECONNREFUSED)", migrations: "unknown" });
      for (const path of ["/api/dcim/sites/", "/wp-json/calendar/events/v1/events"]) {
        const res = await fetch(`${base}${path}`, { headers: { Authorization: `Token ${TOKEN}` } });
        expect(res.status, path).to.equal(503);
        expect(res.headers.get("retry-after"), path).to.equal("5");
        const body = await res.json() as Record<string, unknown>;
        expect(body, path).to.satisfy((b: Record<string, unknown>) => (path.startsWith("/api") ? b.detail === "The database is unavailable; try again shortly." : b.code === "rest_database_unavailable"));
      }
    });

    it("--workers 2: both workers answer on one port, one killed is replaced, SIGTERM stops them all and exits 0", async function () {
      // PGlite is an in-process engine: one process owns its DATA_DIR.
      if (!postgresUrl) this.skip();
      scratch = await scratchDatabase("migrated");
      const env = { ...scratch.env };
      delete env.LOG_REQUESTS;
      const server = armature(env, "serve", "--port", "0", "--workers", "2");
      const base = await servingOrExit(server);
      expect(server.out()).to.match(/Armature is serving .* from 2 worker processes:/);
      const answering = () => new Set(logLines(server).filter((l) => l.path === "/health/" && l.status === 200).map((l) => l.pid as number));
      const answeredBy = (n: number) => async () => {
        await get(`${base}/health/`);
        return answering().size >= n ? answering() : undefined;
      };
      const [victim] = await eventually(answeredBy(2), "a second worker answering");
      expect(victim).to.not.equal(server.child.pid);

      process.kill(victim, "SIGKILL");
      await eventually(async () => (server.err().includes(`worker ${victim} ended (signal SIGKILL): starting another`) ? true : undefined), "the primary noticing");
      await eventually(answeredBy(3), "the new worker answering");

      server.child.kill("SIGTERM");
      expect(await server.exited).to.equal(0);
      expect(server.out()).to.include("SIGTERM: stopping 2 worker(s)").and.include("all workers stopped cleanly");
    });
  });

  it("SIGTERM during a slow bulk create: the client gets its 201 with every object, the rows are stored, new connections are refused, exit 0", async () => {
    scratch = await scratchDatabase("migrated");
    // Idle connections kept for ten minutes: only the server's own close at shutdown ends one here.
    const server = armature({ ...scratch.env, KEEP_ALIVE_TIMEOUT: "600" }, "serve", "--port", "0");
    const base = await servingOrExit(server);
    const port = Number(new URL(base).port);

    // An idle keep-alive connection must be closed by the server, not left to hold the exit.
    const idle = net.connect(port, "127.0.0.1");
    const idleClosed = new Promise<void>((resolve) => idle.on("close", () => resolve()));
    idle.on("error", () => undefined);
    idle.write(`GET /api/status/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TOKEN}\r\n\r\n`);
    const answered = String(await new Promise((resolve) => idle.once("data", resolve)));
    expect(answered, "the server's keep-alive timeout, as it tells clients").to.match(/\r\nKeep-Alive: timeout=600\r\n/i);

    // Slow because the client holds it: half its body is sent before the signal, the rest after.
    // However many objects it carries, the request is in flight throughout.
    const names = Array.from({ length: 50 }, (_, i) => `shutdown-tenant-${i}`);
    const body = Buffer.from(JSON.stringify(names.map((name) => ({ name, slug: name }))));
    const req = http.request(`${base}/api/tenancy/tenants/`, {
      method: "POST",
      agent: new http.Agent({ keepAlive: true }),
      // Node's server says 100 Continue as it hands the request to the app: from then on the
      // request is in flight, whatever the machine's speed.
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json", "Content-Length": body.length, Expect: "100-continue" },
    });
    const taken = new Promise<void>((resolve) => req.once("continue", () => resolve()));
    const reply = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
      req.on("error", reject);
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
      });
    });
    req.write(body.subarray(0, body.length / 2));
    await taken;

    server.child.kill("SIGTERM");
    // On PostgreSQL `serve` runs a worker per core, and each says it shuts down: the one that
    // took the request says it waits for it.
    await until(server, /SIGTERM: shutting down; .* 1 request\(s\) in flight/);
    // The port closes once the last worker leaves it (the cluster's primary holds it); while
    // the request is still in flight all the same.
    await eventually(async () => ((await connectError(port)) === "ECONNREFUSED" ? true : undefined), "new connections refused");
    // While a request is still in flight: the server closed it, not its ten-minute idle timer.
    await idleClosed;
    req.end(body.subarray(body.length / 2));

    const res = await reply;
    expect(res.status, res.body).to.equal(201);
    expect(res.connection).to.equal("close");
    const created = JSON.parse(res.body) as Array<{ id: string; name: string }>;
    expect(created.map((t) => t.name)).to.deep.equal(names);
    expect(await server.exited).to.equal(0);
    expect(server.out()).to.match(/shut down cleanly/);
    expect(server.err()).to.equal("");

    const db = await scratch.open();
    try {
      const stored = await db.knex("tenancy_tenant").whereIn("name", names).count({ n: "*" }).first();
      expect(Number(stored!.n)).to.equal(names.length);
    } finally {
      await db.close();
    }
  });

  it("two instances started together on an empty database both serve; migrations are applied and recorded once", async function () {
    // PGlite is an in-process engine: one process owns its DATA_DIR, so there is no second instance to race.
    if (!postgresUrl) this.skip();
    scratch = await scratchDatabase("empty");
    const a = armature(scratch.env, "serve", "--port", "0", "--verbose");
    const b = armature(scratch.env, "serve", "--port", "0", "--verbose");
    const bases = await Promise.all([servingOrExit(a), servingOrExit(b)]);
    const migrated = [a.out(), b.out()].map((out) => /^migrated: \d+ migrations \([^)]*\): (.*)$/m.exec(out)?.[1]).filter((m) => m !== undefined);
    expect(migrated).to.have.length(1);
    await cli(scratch.env, "createsuperuser", "--username", "admin", "--password", "admin-password", "--token", TOKEN);
    for (const base of bases) expect(await status(base)).to.equal(200);

    const db = await scratch.open();
    try {
      const recorded = (await db.knex("armature_migrations").select("api", "name").orderBy(["api", "name"]))
        .map((r: { api: string; name: string }) => `${r.api}/${r.name}`);
      expect(recorded).to.deep.equal(migrated[0]!.split(", ").sort());
    } finally {
      await db.close();
    }
    expect(a.err() + b.err()).to.equal("");
  });

  it("two `run` instances started together on an empty database: one admin, one token printed once, demo data loaded once", async function () {
    // PGlite is an in-process engine: one process owns its DATA_DIR, so there is no second instance to race.
    if (!postgresUrl) this.skip();
    scratch = await scratchDatabase("empty");
    const a = armature(scratch.env, "run", "--port", "0");
    const b = armature(scratch.env, "run", "--port", "0");
    const bases = await Promise.all([servingOrExit(a), servingOrExit(b)]);
    const last = /API token: [0-9a-f]{40}|its API token was printed/;
    await Promise.all([until(a, last), until(b, last)]);
    // Printed by the one that made it; the other says where to find it.
    const tokens = [a.out(), b.out()].flatMap((out) => /API token: ([0-9a-f]{40})/.exec(out)?.[1] ?? []);
    expect(tokens).to.have.length(1);
    expect([a.out(), b.out()].filter((out) => out.includes("loaded demo data"))).to.have.length(1);
    for (const base of bases) {
      const res = await fetch(`${base}/api/status/`, { headers: { Authorization: `Token ${tokens[0]}` } });
      expect(res.status).to.equal(200);
    }

    const db = await scratch.open();
    try {
      expect(await db.knex("users_user").where("username", "admin").count({ n: "*" }).first()).to.deep.equal({ n: "1" });
      expect((await db.knex("armature_demo").pluck("api")).sort()).to.deep.equal(["calendar", "inventory"]);
    } finally {
      await db.close();
    }
    expect(a.err() + b.err()).to.equal("");
  });

  it("the served process answers requests Node's parser refuses in the API's own error format", async () => {
    scratch = await scratchDatabase("migrated");
    const server = armature(scratch.env, "serve", "--port", "0");
    const port = Number(new URL(await servingOrExit(server)).port);
    const reply = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = net.connect(port, "127.0.0.1", () => socket.end(Buffer.from("GET /wp-json/\x01 HTTP/1.1\r\nHost: x\r\n\r\n", "latin1")));
      socket.on("data", (d) => (text += d));
      socket.on("error", reject);
      socket.on("close", () => resolve(text));
    });
    expect(reply).to.match(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.split("\r\n\r\n")[1])).to.deep.include({ code: "rest_invalid_request" });
  });

  it("a busy port: a clear error naming host and port on stderr, a non-zero exit, no claim to be serving", async () => {
    scratch = await scratchDatabase("migrated");
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const { port } = squatter.address() as AddressInfo;
    try {
      const p = armature(scratch.env, "serve", "--port", String(port));
      const serving = p.serving.then(() => "claimed to be serving");
      expect(await Promise.race([p.exited, serving])).to.be.a("number").and.not.equal(0);
      expect(p.err()).to.include(`cannot listen on 127.0.0.1:${port}`).and.include("EADDRINUSE");
      expect(p.out()).to.not.include("serving");
    } finally {
      squatter.close();
    }
  });

  it("a second process on a PGlite directory in use: a clear error naming it on stderr, a non-zero exit, the first keeps serving; after SIGKILL a new one starts", async function () {
    if (postgresUrl) this.skip();
    scratch = await scratchDatabase("migrated");
    const first = armature(scratch.env, "serve", "--port", "0");
    const base = await servingOrExit(first);

    // Started together: each is refused on its own, whichever asks first.
    const seconds = [["serve", "--port", "0"], ["run", "--port", "0"], ["migrate"]].map(([command, ...args]) => ({ command, second: armature(scratch!.env, command, ...args) }));
    for (const { command, second } of seconds) {
      const serving = second.serving.then(() => "claimed to be serving");
      expect(await Promise.race([second.exited, serving]), command).to.be.a("number").and.not.equal(0);
      expect(second.err(), command).to.include(`${realpathSync(scratch.dataDir!)} is in use by another Armature process`);
      expect(second.out(), command).to.not.include("serving").and.not.include("migrated");
    }
    expect(await status(base)).to.equal(200);
    const created = await fetch(`${base}/api/tenancy/tenants/`, {
      method: "POST",
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "still-serving", slug: "still-serving" }),
    });
    expect(created.status).to.equal(201);

    process.kill(-first.child.pid!, "SIGKILL");
    expect(await first.exited).to.equal(null);
    const next = armature(scratch.env, "serve", "--port", "0");
    expect(await status(await servingOrExit(next))).to.equal(200);
    expect(next.err()).to.equal("");
  });

  it("serve runs a queue worker unless QUEUE_WORKER=0; `armature worker` delivers what another instance enqueued and stops on SIGTERM", async () => {
    scratch = await scratchDatabase("migrated");
    const off = armature({ ...scratch.env, QUEUE_WORKER: "0" }, "serve", "--port", "0");
    await servingOrExit(off);
    await until(off, /queue worker: off \(QUEUE_WORKER=0\)/);
    process.kill(-off.child.pid!, "SIGTERM");
    expect(await off.exited, `${off.out()}\n${off.err()}`).to.equal(0);
    // A PGlite directory belongs to one process: a worker of its own is for PostgreSQL.
    if (!postgresUrl) return;

    const got: string[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => { got.push(`${req.method} ${req.url} ${body}`); res.end(); });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const worker = armature({ ...scratch.env, QUEUE_POLL_INTERVAL: "1" }, "worker");
    const db = await scratch.open();
    try {
      await until(worker, /queue worker \S+ is running/);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await enqueue(db.knex, WEBHOOK_TASK, {
        webhook: { id: "w", name: "w" }, about: "test", requestId: "r", url, method: "POST",
        headers: [["Content-Type", "text/plain"]], body: "hello", sslVerification: true, caFilePath: null,
      });
      await within((async () => { while (!got.length) await new Promise((r) => setTimeout(r, 50)); })(), 60_000, "no delivery");
      expect(got).to.deep.equal(["POST /hook hello"]);
      process.kill(-worker.child.pid!, "SIGTERM");
      expect(await worker.exited).to.equal(0);
      expect(worker.out()).to.match(/SIGTERM: stopping the queue worker/);
      const [task] = await db.knex("armature_tasks").where("kind", WEBHOOK_TASK).select("state", "attempts");
      expect(task).to.deep.equal({ state: "succeeded", attempts: 1 });
    } finally {
      receiver.close();
      await db.close();
    }
  });
});
