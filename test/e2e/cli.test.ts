// The command line as a newcomer uses it, on a fresh on-disk embedded database: `make run`'s
// command migrates, loads demo data once, prints the URLs and an admin token that works, one
// that can write (never a browser's read-only session token), at the first start only, and
// then idles in little memory; `migrate`, `demo-data` and `createsuperuser` are idempotent. And
// as the built command line (plain node) meets a wrong or curious command line: help runs
// nothing, refusals exit 2 before any database.
import { expect } from "chai";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtCli } from "../support/build.js";
import { residentMb, root, runRecipe } from "../support/make-run.js";
import { commands } from "../../bin/command-line.js";

const dataDir = mkdtempSync(join(tmpdir(), "armature-cli-"));
const port = 20000 + (process.pid % 20000);
const base = `http://127.0.0.1:${port}`;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(dataDir, "pglite"), PORT: String(port), HOST: "127.0.0.1", ADMIN_PASSWORD: "cli-admin", LOG_REQUESTS: "0" };
  delete e.DATABASE_URL;
  return e;
};
/** Resident memory allowed once idle: docs/operating/memory.md's figure (about 200 MB) with a margin for a busy machine. */
const LIMIT_MB = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A command of the built command line to its end; rejects unless it exits 0. */
async function cli(...args: string[]): Promise<string> {
  const built = await builtCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [built, ...args], { env: env() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`armature ${args.join(" ")} exited ${code}: ${out}`))));
  });
}

/** Starts `make run`'s command, its environment and node options included, resolving with its output once it printed `last`. */
function run(last: RegExp): Promise<{ child: ChildProcess; out: () => string }> {
  const recipe = runRecipe();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...recipe.options, "bin/armature.ts", "run"], { cwd: root, env: { ...env(), ...recipe.env } });
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      if (last.test(out)) resolve({ child, out: () => out });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => reject(new Error(`run exited ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("close");
    child.on("close", () => resolve());
    child.kill("SIGTERM");
  });
}

const tokenOf = (out: string) => /API token: ([0-9a-f]{40})/.exec(out)![1];

describe("make run on a fresh embedded database", function () {
  // Process starts, the first migrating a new on-disk database: about 40 s on an idle machine
  // and past 120 s on a busy one. A bound for hangs, not for the machine's speed.
  this.timeout(600000);
  let first: { child: ChildProcess; out: () => string };

  before(async () => {
    // The build the idempotence test runs, meanwhile. Its failure is that test's to report.
    void builtCli().catch(() => undefined);
    first = await run(/API token: [0-9a-f]{40}/);
    for (;;) {
      if (await fetch(`${base}/health/ready/`).then((r) => r.status === 200, () => false)) break;
      expect(first.child.exitCode, `the server exited:\n${first.out()}`).to.equal(null);
      await sleep(250);
    }
  });
  after(async () => {
    // Unset when the first start failed: the hook says why.
    if ((first as typeof first | undefined) !== undefined) await stop(first.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`idles under ${LIMIT_MB} MB resident once migrated, loaded and serving`, async () => {
    if (process.platform !== "linux") return; // the figure comes from /proc
    // Idle: nothing asks anything while start-up's garbage is collected. It settles once two
    // readings a second apart are both under the bound; a bound on the wait, for hangs only.
    const readings: number[] = [];
    const settleBy = Date.now() + 60_000;
    while (readings.length < 2 || readings.slice(-2).some((mb) => mb >= LIMIT_MB)) {
      expect(Date.now(), `resident memory after start-up, with the processes it started: ${readings.map((mb) => mb.toFixed(0)).join(", ")} MB`).to.be.below(settleBy);
      await sleep(1000);
      readings.push(residentMb(first.child.pid!));
    }
  });

  it("migrates, loads demo data, prints both API URLs, the docs URL and a token that can write; the changes are the system's", async () => {
    const out = first.out();
    // How many ran, per migration stream (each API's, each app's), on one line; their names only with --verbose.
    const migrated = /^migrated: (\d+) migrations \((.*)\)$/m.exec(out);
    expect(migrated, out).to.not.equal(null);
    const perApi = Object.fromEntries(migrated![2].split(", ").map((p) => p.split(" ")).map(([api, n]) => [api, Number(n)]));
    expect(Object.keys(perApi).sort()).to.deep.equal(["armature", "calendar", "inventory", "inventory/bgp"]);
    expect(Object.values(perApi).reduce((a, b) => a + b)).to.equal(Number(migrated![1]));
    expect(out).to.not.include("0001_initial.sql");
    expect(out).to.match(/loaded demo data: .*inventory \(\d+ records\)/);
    expect(out).to.include(`${base}/api/`).and.include(`${base}/api/docs/`).and.include(`${base}/wp-json/calendar/events/v1/`);
    const token = tokenOf(out);
    const sites = await fetch(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } });
    expect(sites.status).to.equal(200);
    // The demo limits rates (RATE_LIMIT_ENABLED unset): its answers say what is left.
    expect(out).to.include("rate limits: 600 units per user or address");
    expect([sites.headers.get("ratelimit-limit"), sites.headers.get("ratelimit-remaining")]).to.deep.equal(["600", "594"]);
    const count = ((await sites.json()) as { count: number }).count;
    expect(count).to.be.greaterThan(0);
    // The demo data is in the change log, as the system's: no user, one request of its own.
    const changes = await fetch(`${base}/api/extras/object-changes/?limit=1000`, { headers: { Authorization: `Token ${token}` } });
    const logged = ((await changes.json()) as { results: Array<{ user: unknown; user_name: string; request_id: string; changed_object_type: string }> }).results;
    const demoSites = logged.filter((c) => c.changed_object_type === "dcim.site");
    expect(demoSites).to.have.length(count);
    expect(new Set(logged.map((c) => `${c.user} ${c.user_name} ${c.request_id}`)).size).to.equal(1);
    expect(logged[0]).to.deep.include({ user: null, user_name: "system" });
    const write = await fetch(`${base}/api/extras/tags/`, {
      method: "POST", headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: "from-cli-test" }),
    });
    expect(write.status).to.equal(201);
    // A browser login gives the admin a read-only token too; it must never be the one printed.
    const login = await fetch(`${base}/api/login/`, {
      method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "username=admin&password=cli-admin",
    });
    expect(login.status).to.equal(302);
  });

  it("the rest is idempotent: migrate, demo-data and createsuperuser change nothing; a second run loads nothing and prints no secret", async () => {
    const token = tokenOf(first.out());
    const count = ((await (await fetch(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } })).json()) as { count: number }).count;
    await stop(first.child);

    expect(await cli("migrate")).to.include("nothing to migrate");
    expect(await cli("demo-data")).to.include("demo data already loaded");
    expect(tokenOf((await cli("createsuperuser", "--username", "admin", "--password", "cli-admin")).replace("superuser admin; API token:", "API token:"))).to.equal(token);

    const second = await run(/admin login: .*\n/);
    try {
      expect(second.out()).to.not.include("loaded demo data");
      expect(second.out(), "a secret printed into every start's log").to.not.include(token).and.not.include("cli-admin");
      expect(second.out()).to.include("armature createsuperuser --username admin");
      const again = await fetch(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } });
      expect(((await again.json()) as { count: number }).count).to.equal(count);
    } finally {
      await stop(second.child);
    }

    const given = "abcdef0123456789abcdef0123456789abcdef01";
    for (let i = 0; i < 2; i++) {
      const out = await cli("createsuperuser", "--username", "admin", "--password", "cli-admin", "--token", given);
      expect(out, "a deploy script may repeat it").to.include(`API token: ${given}`);
    }
  });
});

/** Runs the built command line to its end with no database configured at all; gives its exit status and output. */
function built(cli: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (status) => resolve({ status, out, err }));
  });
}

describe("command line, built: help runs nothing, a wrong command line is refused before any database", function () {
  // The build (tsc over the sources) and a few dozen short processes, each test's started
  // together (they share nothing): a bound for hangs only.
  this.timeout(600000);
  let cli: string;
  const scratch = mkdtempSync(join(tmpdir(), "armature-cli-args-"));
  // Opening the embedded database creates this directory: its absence shows none was opened.
  const untouched = join(scratch, "never");
  const env = () => {
    const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: untouched };
    delete e.DATABASE_URL;
    return e;
  };

  before(async () => {
    cli = await builtCli();
  });
  afterEach(() => expect(existsSync(untouched), "the command opened the embedded database").to.equal(false));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("--help lists the commands and exits 0; no command at all exits 2 with the same list on stderr", async () => {
    const [help, none] = await Promise.all([built(cli, env(), "--help"), built(cli, env())]);
    expect(help.status).to.equal(0);
    for (const name of Object.keys(commands)) expect(help.out).to.match(new RegExp(`^  ${name} `, "m"));
    expect(none.status).to.equal(2);
    expect(none.err).to.include("usage: armature <command>");
  });

  it("every command's --help prints its usage and exits 0 without doing anything", async () => {
    const names = Object.keys(commands);
    const answers = await Promise.all(names.map((name) => built(cli, env(), name, "--help")));
    for (const [i, name] of names.entries()) {
      const res = answers[i];
      expect(res.status, `${name} --help: ${res.err}`).to.equal(0);
      expect(res.out).to.match(new RegExp(`^usage: armature ${name}\\b`));
      expect(res.err).to.equal("");
    }
  });

  it("generate --help from the sources writes nothing", () => {
    const before = execFileSync("git", ["status", "--porcelain", "--", "generated"], { encoding: "utf8" });
    const out = execFileSync(process.execPath, ["--import", "tsx", "bin/armature.ts", "generate", "--help"], { encoding: "utf8" });
    expect(out).to.match(/^usage: armature generate/);
    expect(execFileSync("git", ["status", "--porcelain", "--", "generated"], { encoding: "utf8" })).to.equal(before);
  });

  it("unknown options, stray arguments, missing and bad values: exit 2 with a message naming them", async () => {
    const cases: Array<[string[], string]> = [
      [["serve", "--prot", "18611"], "armature serve: Unknown option '--prot'"],
      [["migrate", "now"], "Unexpected argument 'now'"],
      [["createsuperuser"], "--username and --password are required"],
      [["createsuperuser", "--username", "admin", "--password", "p", "--token", "short"], "--token: Token keys are 40 hexadecimal characters"],
      [["serve", "--port", "http"], '--port must be a whole number from 0 to 65535, not "http"'],
      [["run", "--port"], "Option '--port <value>' argument missing"],
      [["serve", "--workers", "2"], "the embedded database belongs to one process; set DATABASE_URL"],
      [["create-app-password", "--name", "x"], "--username is required"],
      [["frob"], 'no command "frob"'],
    ];
    const answers = await Promise.all(cases.map(([args]) => built(cli, env(), ...args)));
    for (const [i, [args, message]] of cases.entries()) {
      const res = answers[i];
      expect(res.status, args.join(" ")).to.equal(2);
      expect(res.err, args.join(" ")).to.include(message);
      expect(res.out, args.join(" ")).to.equal("");
    }
  });

  it("generate and check in the build say they run from the sources", async () => {
    const fromSources = ["generate", "check"];
    const answers = await Promise.all(fromSources.map((command) => built(cli, env(), command)));
    for (const [i, command] of fromSources.entries()) {
      const res = answers[i];
      expect(res.status).to.equal(2);
      expect(res.err).to.include(`make ${command}`);
    }
  });
});
