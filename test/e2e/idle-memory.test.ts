// The embedded default's footprint: `make run`'s command, on an empty data directory, migrates,
// loads the demo data and serves; once ready and left idle, its resident memory (VmRSS, as an
// operator's `ps` shows it, with that of any process it started) stays under a bound. A memory figure, not a timing: the waits are
// conditions with generous limits. Always the embedded engine (PGlite), which is what it measures.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../support/waiting.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Resident memory allowed once idle: docs/operating/memory.md's figure (about 200 MB) with a margin for a busy machine. */
const LIMIT_MB = 250;

/**
 * The Makefile's `run` recipe as environment and node options, so the test measures what `make
 * run` starts: `[NAME=value ...] node <options> bin/armature.ts run`, over continued lines.
 */
function runRecipe(): { env: Record<string, string>; options: string[] } {
  const makefile = readFileSync(join(root, "Makefile"), "utf8").replace(/\\\n\t\s*/g, " ");
  const recipe = /^run:.*\n\t((?:\w+=\S+\s+)*)node (.*) bin\/armature\.ts run$/m.exec(makefile);
  if (!recipe) throw new Error("the Makefile's run recipe is not `[NAME=value ...] node <options> bin/armature.ts run`");
  const env = Object.fromEntries(recipe[1].trim().split(/\s+/).filter(Boolean).map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
  return { env, options: recipe[2].split(/\s+/) };
}

/** VmRSS of a process and of every process it started (the TypeScript loader's esbuild service), in MB. */
function residentMb(pid: number): number {
  let kb = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${entry}/status`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    if (Number(entry) !== pid && !descends(Number(entry), pid)) continue;
    kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

function descends(pid: number, ancestor: number): boolean {
  for (let p = pid; p > 1; ) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, "utf8");
    } catch {
      return false;
    }
    p = Number(/^PPid:\s+(\d+)$/m.exec(status)![1]);
    if (p === ancestor) return true;
  }
  return false;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("e2e: the embedded default's idle memory", function () {
  this.timeout(15 * 60_000);
  let child: ChildProcess | undefined;
  let dataDir: string;

  before(function () {
    if (process.platform !== "linux") this.skip();
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`make run's server, migrated, with the demo data, idles under ${LIMIT_MB} MB resident`, async () => {
    dataDir = mkdtempSync(join(tmpdir(), "armature-rss-"));
    const port = await freePort();
    const recipe = runRecipe();
    const env: NodeJS.ProcessEnv = { ...process.env, ...recipe.env, DATA_DIR: join(dataDir, "pglite"), PORT: String(port), HOST: "127.0.0.1", LOG_REQUESTS: "0" };
    delete env.DATABASE_URL;
    let output = "";
    child = spawn(process.execPath, [...recipe.options, "bin/armature.ts", "run"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));

    const deadline = Date.now() + 12 * 60_000;
    for (;;) {
      expect(child.exitCode, `the server exited:\n${output}`).to.equal(null);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready/`).then((r) => r.status === 200, () => false);
      if (ready) break;
      expect(Date.now(), `not ready in time:\n${output}`).to.be.below(deadline);
      await sleep(250);
    }
    // Idle: nothing asks anything while start-up's garbage is collected. It settles once two
    // readings a second apart are both under the bound; a bound on the wait, for hangs only.
    const readings: number[] = [];
    const settleBy = Date.now() + 60_000;
    while (readings.length < 2 || readings.slice(-2).some((mb) => mb >= LIMIT_MB)) {
      expect(Date.now(), `resident memory after start-up, with the processes it started: ${readings.map((mb) => mb.toFixed(0)).join(", ")} MB`).to.be.below(settleBy);
      await sleep(1000);
      readings.push(residentMb(child.pid!));
    }
  });
});
