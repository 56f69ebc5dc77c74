// PostgreSQL clusters a test makes for itself (initdb, pg_ctl on a free port; never the
// machine's shared server), a streaming replica of one (pg_basebackup -R), and `armature`
// processes on them: for the tests that crash, stop and restart databases and servers.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./waiting.js";

/**
 * Where PostgreSQL's server tools are: PG_BIN, else the newest Debian/Ubuntu install
 * (`/usr/lib/postgresql/<major>/bin`, which `.ci/run` installs), else `pg_config --bindir`
 * (other distributions, Homebrew). Undefined when none has `initdb`.
 */
export const PG_BIN: string | undefined = (() => {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    candidates.push(...readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((x, y) => Number(y) - Number(x)).map((v) => join(debian, v, "bin")));
  }
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch { /* no pg_config on PATH */ }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_basebackup")));
})();

/** Whether PostgreSQL's own tools are here to make clusters with. */
export const clustersAvailable = () => PG_BIN !== undefined;

const asRoot = process.getuid?.() === 0;

const run = promisify(execFile);

/**
 * PostgreSQL refuses to run as root: as root, its tools run as the postgres user; otherwise as
 * whoever runs the tests. Never synchronously: a test's clients keep sending (and reading their
 * answers) while a cluster stops or starts, which is the load the test puts it under; a blocked
 * event loop would also leave their keep-alive connections to close under them unseen.
 */
async function asPostgres(tool: string, args: string[]): Promise<void> {
  const bin = join(PG_BIN!, tool);
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  await run(file, argv, { encoding: "utf8" });
}

const uid = (user: string) => Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
const gid = (user: string) => Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());

export class Cluster {
  readonly dir = mkdtempSync(join(tmpdir(), "armature-cluster-"));
  /** `settings`: `-c` options every start passes. */
  constructor(readonly port: number, private readonly settings: string[] = []) {
    if (asRoot) chownSync(this.dir, uid("postgres"), gid("postgres"));
    chmodSync(this.dir, 0o700);
  }
  get data(): string { return join(this.dir, "data"); }
  get url(): string { return `postgresql://postgres@127.0.0.1:${this.port}/postgres`; }

  /** A new, empty cluster. */
  static async init(port: number, settings: string[] = []): Promise<Cluster> {
    const cluster = new Cluster(port, settings);
    await asPostgres("initdb", ["-D", cluster.data, "-A", "trust", "-U", "postgres", "--no-sync"]);
    return cluster;
  }

  /** A streaming replica of `primary` (running), as `pg_basebackup -R` makes it: started by `start`. */
  static async replicaOf(primary: Cluster, port: number, settings: string[] = []): Promise<Cluster> {
    const replica = new Cluster(port, settings);
    await asPostgres("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", replica.data, "-R", "-X", "stream", "--no-sync"]);
    return replica;
  }

  async start(): Promise<void> {
    const options = [`-p ${this.port}`, `-k ${this.dir}`, "-c listen_addresses=127.0.0.1", ...this.settings.map((s) => `-c ${s}`)].join(" ");
    await asPostgres("pg_ctl", ["-D", this.data, "-l", join(this.dir, "log"), "-w", "-o", options, "start"]);
  }
  /** As an operator stops it: sessions ended, a checkpoint. */
  async stop(): Promise<void> {
    await asPostgres("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "stop"]);
  }
  /** As a crash: no checkpoint, the WAL replayed at the next start. */
  async crash(): Promise<void> {
    await asPostgres("pg_ctl", ["-D", this.data, "-m", "immediate", "-w", "stop"]);
  }
  async remove(): Promise<void> {
    try { await this.crash(); } catch { /* not running */ }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Armature { child: ChildProcess; out: () => string; exited: Promise<number | null> }

/** `bin/armature.ts` with `args`, in a process group of its own (to kill it whole). */
export function armature(env: NodeJS.ProcessEnv, ...args: string[]): Armature {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/armature.ts", ...args], { env, detached: true });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return { child, out: () => out, exited: new Promise((resolve) => child.on("close", (code) => resolve(code))) };
}

/** `serve` on a port of its own choosing: the process and its base URL once it serves. */
export async function serve(env: NodeJS.ProcessEnv): Promise<Armature & { base: string }> {
  const server = armature(env, "serve", "--port", "0");
  try {
    const base = await eventually(async () => /Armature is serving[^\n]*\n[^\n]*?(http:\/\/[^/\s]+)\//.exec(server.out())?.[1], "serving");
    return { ...server, base };
  } catch (err) {
    // One that never served is no test's to stop: stopped here, and what it said kept for the failure.
    try {
      process.kill(-server.child.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
    throw new Error(`${(err as Error).message}; it printed: ${server.out().slice(-3000) || "nothing"}`);
  }
}

/** The environment for an `armature` process on `databaseUrl`, with none of the test's own server settings. */
export function serverEnv(databaseUrl: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_REQUESTS: "0", QUEUE_WORKER: "0", ...more };
  delete env.PORT;
  delete env.HOST;
  return env;
}

/** Kills `server`'s process group, if it still runs. */
export function kill(server: Armature | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (server?.child.pid) try { process.kill(-server.child.pid, signal); } catch { /* gone */ }
}
