// The bench's loads driven by wrk (BENCH_DRIVER=wrk) rather than by Node's HTTP client: the
// tool issue 32 checks the ratios with. wrk is C and reads a reply without parsing it beyond
// its framing, so on cores the servers share it takes less of them than Node's client does,
// and least where answers are large. A load's requests are drawn from its `next` beforehand
// (a cycle of them, which wrk's threads go round), and wrk runs for the load's time, not a
// count of requests.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuPerRequest } from "./cpu.js";
import type { Load, Meter, Request, Result } from "./load.js";

const SCRIPT = fileURLToPath(new URL("./wrk-requests.lua", import.meta.url));
/** Reads drawn from a load's `next` for wrk to go round: enough to spread over the pages a scenario picks from. */
const READS = 1000;
/**
 * Writes drawn for one run: each is sent once (a create's values are unique: a prefix twice in
 * one VRF is refused), so more than a run at wrk's pace sends. One that goes round is seen, as
 * the errors it answers.
 */
const WRITES = 60000;
/** Latency quantiles wrk reports for a run (its `done`), standing for its requests' latencies when halves are combined. */
const QUANTILES = 200;

/** Whether wrk is on the PATH (Debian's package `wrk`). */
export function wrkAvailable(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1; only a missing command is "not there".
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** Whether wrk can drive `load`: one that reads the bodies, or sends one request at a time by count (a bulk), stays with Node's client. */
export const wrkCanDrive = (load: Load): boolean => !load.onBody && load.concurrency >= 2;

/** What wrk's `done` (wrk-requests.lua) prints. */
interface WrkSummary {
  requests: number;
  duration_us: number;
  bytes: number;
  errors: number;
  status_errors: number;
  quantiles: number[];
}

/** The request file wrk-requests.lua reads: header lines, then one line a request (tab-separated; JSON holds no raw tab or newline). */
function requestFile(load: Load, requests: Request[]): string {
  const lines = Object.entries(load.headers).map(([name, value]) => `H\t${name}\t${value}`);
  for (const r of requests) {
    const url = new URL(r.url);
    lines.push(`R\t${r.method}\t${url.pathname}${url.search}\t${r.body ?? ""}`);
  }
  return lines.join("\n") + "\n";
}

async function wrk(origin: string, file: string, connections: number, seconds: number): Promise<WrkSummary> {
  const args = ["-t", String(Math.min(2, connections)), "-c", String(connections), "-d", `${Math.max(1, Math.round(seconds))}s`, "--timeout", "120s", "-s", SCRIPT, origin];
  const child = spawn("wrk", args, { env: { ...process.env, WRK_REQUESTS: file }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const line = /^WRK (.*)$/m.exec(out);
  if (code !== 0 || !line) throw new Error(`wrk ${args.join(" ")} exited ${code}: ${out.slice(0, 500)}`);
  return JSON.parse(line[1]) as WrkSummary;
}

/** Runs `load` under wrk: its warm-up for its warm-up time, then the measured run, metered as Node's client's run is. */
export async function runWrk(load: Load & { meter: Meter }): Promise<Result> {
  const first = load.next();
  const origin = new URL(first.url).origin;
  const dir = mkdtempSync(join(tmpdir(), "armature-wrk-"));
  // A file of requests for each run, the warm-up's and the measured one's: no write is sent twice.
  const drawn = (name: string, head?: Request) => {
    const requests = head ? [head] : [];
    while (requests.length < (first.method === "GET" ? READS : WRITES)) requests.push(load.next());
    const file = join(dir, name);
    writeFileSync(file, requestFile(load, requests));
    return file;
  };
  try {
    if (load.warmup > 0) await wrk(origin, drawn("warm-up.tsv", first), load.concurrency, load.warmupSeconds ?? load.seconds);
    const file = drawn("measured.tsv", load.warmup > 0 ? undefined : first);
    await load.meter.begin();
    const s = await wrk(origin, file, load.concurrency, load.seconds);
    const metered = await load.meter.end();
    // wrk stops with each connection's last request in flight, its statements sent and metered
    // but its answer not counted: those count as sent, else a statement a request read as 1.1.
    const sent = Math.max(1, s.requests + load.concurrency);
    const seconds = s.duration_us / 1e6;
    // wrk gives quantiles, not each latency: they stand for the requests, evenly weighted.
    const latencies = s.quantiles.slice(0, QUANTILES);
    return {
      requests: s.requests, seconds, rps: s.requests / seconds, p50: latencies[QUANTILES / 2], p99: latencies[Math.floor(QUANTILES * 0.99)],
      latencies, errors: s.errors + s.status_errors,
      firstError: s.errors + s.status_errors ? `${s.status_errors} answers not 2xx or 3xx, ${s.errors} socket errors or timeouts` : undefined,
      statements: metered.statements / sent, roundTrips: metered.roundTrips / sent, peakRss: metered.peakRss, ...cpuPerRequest(metered, sent),
      // Headers included: wrk counts what it read, and does not split it.
      answerBytes: s.bytes / Math.max(1, s.requests),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
