// The command line as a newcomer uses it, on a fresh on-disk embedded database: `run`
// migrates, loads demo data once, prints the URLs and an admin token that works, and keeps
// printing a token that can write (never a browser's read-only session token); `migrate`,
// `demo-data` and `createsuperuser` are idempotent.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "armature-cli-"));
const port = 20000 + (process.pid % 20000);
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: "cli-admin" };
  delete e.DATABASE_URL;
  return e;
};

function cli(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("node_modules/.bin/tsx", ["bin/armature.ts", ...args], { env: env() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`armature ${args.join(" ")} exited ${code}: ${out}`))));
  });
}

/** Starts `run`, resolving with its output once it says it is serving. */
function run(): Promise<{ child: ChildProcess; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("node_modules/.bin/tsx", ["bin/armature.ts", "run"], { env: env() });
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      if (/API token: [0-9a-f]{40}/.test(out)) resolve({ child, out });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => reject(new Error(`run exited ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("close");
    child.on("close", () => resolve());
    child.kill("SIGTERM");
  });
}

const tokenOf = (out: string) => /API token: ([0-9a-f]{40})/.exec(out)![1];

describe("command line on a fresh embedded database", function () {
  // Six process starts, each migrating or opening PGlite: about 40 s on an idle machine and
  // past 120 s on a busy one. A bound for hangs, not for the machine's speed.
  this.timeout(600000);
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("run migrates, loads demo data once, prints both API URLs, the docs URL and a working token; the rest is idempotent", async () => {
    const first = await run();
    expect(first.out).to.match(/migrated: .*inventory\/0001_initial\.sql/);
    expect(first.out).to.match(/loaded demo data: .*inventory \(\d+ records\)/);
    expect(first.out).to.include(`http://127.0.0.1:${port}/api/`).and.include(`http://127.0.0.1:${port}/api/docs/`)
      .and.include(`http://127.0.0.1:${port}/wp-json/calendar/events/v1/`);
    const token = tokenOf(first.out);
    const base = `http://127.0.0.1:${port}`;
    const sites = await fetch(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } });
    expect(sites.status).to.equal(200);
    const count = ((await sites.json()) as { count: number }).count;
    expect(count).to.be.greaterThan(0);
    const write = await fetch(`${base}/api/extras/tags/`, {
      method: "POST", headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: "from-cli-test" }),
    });
    expect(write.status).to.equal(201);
    // A browser login gives the admin a read-only token too; it must never be the one printed.
    const login = await fetch(`${base}/api/login/`, {
      method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "username=admin&password=cli-admin",
    });
    expect(login.status).to.equal(302);
    await stop(first.child);

    expect(await cli("migrate")).to.include("nothing to migrate");
    expect(await cli("demo-data")).to.include("demo data already loaded");
    expect(tokenOf((await cli("createsuperuser", "--username", "admin", "--password", "cli-admin")).replace("superuser admin; API token:", "API token:"))).to.equal(token);

    const second = await run();
    expect(second.out).to.not.include("loaded demo data");
    expect(tokenOf(second.out)).to.equal(token);
    const again = await fetch(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } });
    expect(((await again.json()) as { count: number }).count).to.equal(count);
    await stop(second.child);

    const given = "abcdef0123456789abcdef0123456789abcdef01";
    for (let i = 0; i < 2; i++) {
      const out = await cli("createsuperuser", "--username", "admin", "--password", "cli-admin", "--token", given);
      expect(out, "a deploy script may repeat it").to.include(`API token: ${given}`);
    }
  });
});
