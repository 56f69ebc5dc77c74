// `BENCH_PROCESSES=1`: the servers under test as child processes, each measured on its own.
// Starts Armature's `serve` (one process, no workers) or the floor on a port chosen here,
// waits until it says it serves, and meters it: its SQL statements asked over the IPC channel
// (bench/statements.ts, loaded into it), its resident memory read from /proc/<pid>/status.
// Armature's is the compiled server run as `npm start` runs it, node options and environment
// included: under the TypeScript loader a process holds some 50 MB more, and other V8 and
// malloc settings another 100 MB or more under load. Linux only, as /proc is.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startScript } from "../test/support/make-run.js";
import { postgresSpan, processCpu, spent } from "./cpu.js";
import { KEEP_ALIVE_SECONDS, type Meter } from "./load.js";
import type { Sent } from "./statements.js";

export interface ServingProcess {
  url: string;
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 30 s), after noting its peak. */
  stop(): Promise<void>;
  meter: Meter;
  /** Its highest resident set size (VmHWM) over every start so far, in bytes. */
  peak(): number;
}

const root = fileURLToPath(new URL("..", import.meta.url));
const exec = promisify(execFile);
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** The server and the statement meter compiled, as `npm run build` compiles dist/. */
export interface Build {
  cli: string;
  meter: string;
}

/**
 * Compiles the sources as they are now into a folder of this run's own under .build/ (removed as
 * the bench exits): dist/ may be stale or absent, and is not the bench's to replace.
 */
export async function buildServer(): Promise<Build> {
  const out = join(root, ".build", `bench-${process.pid}`);
  mkdirSync(out, { recursive: true });
  process.once("exit", () => rmSync(out, { recursive: true, force: true }));
  await Promise.all([
    exec(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", out], { cwd: root }),
    exec(process.execPath, [tsc, "bench/statements.ts", "--outDir", join(out, "bench"), "--target", "ES2022", "--module", "NodeNext",
      "--moduleResolution", "NodeNext", "--esModuleInterop", "--skipLibCheck", "--types", "node"], { cwd: root }),
  ]);
  await exec(process.execPath, [join(out, "bin", "build-assets.js")], { cwd: root });
  return { cli: join(out, "bin", "armature.js"), meter: join(out, "bench", "statements.js") };
}

/** A port nothing listens on now, for a child to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A kB figure of /proc/<pid>/status in bytes; 0 once the process is gone. */
function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Armature's `serve` as `npm start` runs it, in one process with the environment's database
 * (DATABASE_URL, or DATA_DIR's PGlite), its request log and queue worker off as in the bench's
 * own process: what is measured is the serving, and the SQL a request sends.
 */
export function armatureServe(port: number, env: NodeJS.ProcessEnv, build: Build): ServingProcess {
  const start = startScript();
  return servingProcess(port, /Armature is serving/, { ...start.env, ...env },
    [...start.options, "--import", pathToFileURL(build.meter).href, build.cli, ...start.args, "--workers", "1", "--port", String(port)]);
}

/** The floor in a process of its own, on the same database. */
export const floorServer = (port: number, env: NodeJS.ProcessEnv) => servingProcess(port, /floor is serving/, env,
  ["--import", "tsx", fileURLToPath(new URL("./floor-server.ts", import.meta.url))]);

function servingProcess(port: number, ready: RegExp, env: NodeJS.ProcessEnv, args: string[]): ServingProcess {
  let child: ChildProcess | undefined;
  let hwm = 0;
  let rss = 0;
  let sampler: NodeJS.Timeout | undefined;
  let baseline: Sent = { statements: 0, roundTrips: 0 };

  const ask = () => new Promise<Sent>((resolve, reject) => {
    if (!child?.connected) return reject(new Error("the serving process is not running"));
    child.once("message", (m) => resolve(m as Sent));
    child.send("statements");
  });

  const start = () => new Promise<void>((resolve, reject) => {
    const c = spawn(process.execPath, args, {
      cwd: root, stdio: ["ignore", "pipe", "inherit", "ipc"],
      env: {
        ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_REQUESTS: "0", QUEUE_WORKER: "0",
        KEEP_ALIVE_TIMEOUT: String(KEEP_ALIVE_SECONDS), BENCH_METER_IPC: "1",
      },
    });
    child = c;
    // A bench that fails half-way must not leave a server behind.
    const orphan = () => c.kill("SIGKILL");
    process.once("exit", orphan);
    c.once("exit", () => process.off("exit", orphan));
    let said = "";
    c.stdout!.setEncoding("utf8");
    c.stdout!.on("data", (chunk: string) => {
      said += chunk;
      if (ready.test(said)) {
        said = "";
        c.stdout!.removeAllListeners("data");
        c.stdout!.resume();
        resolve();
      }
    });
    c.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before serving: ${said}`)));
  });

  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    hwm = Math.max(hwm, status(c.pid!, "VmHWM"));
    const exited = new Promise((resolve) => c.once("exit", resolve));
    c.kill("SIGTERM");
    const kill = setTimeout(() => c.kill("SIGKILL"), 30000);
    await exited;
    clearTimeout(kill);
    child = undefined;
  };

  let cpu: { server?: number; database?: ReturnType<typeof postgresSpan> } = {};
  const meter: Meter = {
    async begin() {
      baseline = await ask();
      rss = status(child!.pid!, "VmRSS");
      sampler = setInterval(() => { rss = Math.max(rss, status(child!.pid!, "VmRSS")); }, 20);
      cpu = { server: processCpu(child!.pid!), database: postgresSpan() };
    },
    async end() {
      clearInterval(sampler);
      rss = Math.max(rss, status(child!.pid!, "VmRSS"));
      const [server, database] = [processCpu(child!.pid!), cpu.database?.end()];
      const now = await ask();
      return {
        statements: now.statements - baseline.statements, roundTrips: now.roundTrips - baseline.roundTrips, peakRss: rss,
        serverCpu: spent(cpu.server, server), databaseCpu: database,
      };
    },
  };

  return {
    url: `http://127.0.0.1:${port}`, start, stop, meter,
    peak: () => Math.max(hwm, child ? status(child.pid!, "VmHWM") : 0),
  };
}
