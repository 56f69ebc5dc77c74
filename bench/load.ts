// The load generator and the meters around it: keep-alive HTTP clients on loopback, the SQL
// statements the server sends to the database, and the server's resident memory (this
// process's, or a serving child's through bench/processes.ts).
import http from "node:http";
import { cpuPerRequest, postgresSpan } from "./cpu.js";
import { sentSoFar, type Sent } from "./statements.js";
import { runWrk, wrkCanDrive } from "./wrk.js";

export interface Request {
  method: "GET" | "POST";
  url: string;
  body?: string;
  /** The status a success answers with; any other (or a transport error) counts as an error. */
  expect: number;
}

export interface Load {
  /** The next request to send; called once per request, so it can hand out unique values. */
  next: () => Request;
  headers: Record<string, string>;
  concurrency: number;
  /** Measured requests; the run also stops issuing new ones once `seconds` have passed. */
  requests: number;
  seconds: number;
  /** Unmeasured requests first, at most (connections opened, plans and code warm). */
  warmup: number;
  /**
   * How long the unmeasured requests go on at most, in seconds (`seconds` if not given): V8
   * optimizes a request's code only after it has run many times, and a server's first thousand
   * requests of a kind cost it up to twice the CPU of the later ones.
   */
  warmupSeconds?: number;
  /** Sees each successful reply's body (the allocation scenario collects addresses). */
  onBody?: (body: string) => void;
  /** The server's meter; this process's when the server runs in it. */
  meter?: Meter;
}

export interface Result {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The status and start of the first failed reply, to tell why without rerunning. */
  firstError?: string;
  /** SQL statements sent to the database per measured request. */
  statements: number;
  /** Round trips to the database per measured request: socket writes carrying statements (none on the embedded engine). */
  roundTrips: number;
  /** Highest resident set size sampled while the scenario ran, in bytes. */
  peakRss: number;
  /** CPU ms the serving process spent per measured request; undefined where it shares its process with the load generator. */
  serverCpu?: number;
  /** CPU ms PostgreSQL's processes spent per measured request; undefined where they are not this machine's (bench/cpu.ts). */
  databaseCpu?: number;
  /** Bytes of a measured reply's body, on average: what the server wrote and the client read. */
  answerBytes: number;
  /** Each measured request's latency in ms, ascending. */
  latencies: number[];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** The results of parts of one scenario measured at different times, as one: rates over their time together, percentiles over all their requests. */
export function combined(parts: Result[]): Result {
  const sum = (f: (r: Result) => number) => parts.reduce((t, r) => t + f(r), 0);
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => r.seconds);
  const latencies = parts.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const perRequest = (f: (r: Result) => number) => sum((r) => f(r) * r.requests) / Math.max(1, requests);
  const cpu = (f: (r: Result) => number | undefined) => (parts.every((r) => f(r) !== undefined) ? perRequest((r) => f(r)!) : undefined);
  return {
    requests, seconds, rps: requests / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99),
    errors: sum((r) => r.errors), firstError: parts.find((r) => r.firstError)?.firstError,
    statements: perRequest((r) => r.statements), roundTrips: perRequest((r) => r.roundTrips),
    peakRss: Math.max(...parts.map((r) => r.peakRss)), answerBytes: perRequest((r) => r.answerBytes), latencies,
    serverCpu: cpu((r) => r.serverCpu), databaseCpu: cpu((r) => r.databaseCpu),
  };
}

/**
 * How long the servers keep an idle client connection open, in seconds: longer than any
 * scenario. With Node's 5 s a client's socket left idle while slower requests finish (warm-up
 * on a slow database) could be reused as the server closes it: a "socket hang up".
 */
export const KEEP_ALIVE_SECONDS = 600;

/** What a scenario's server did while the measured requests ran. */
export interface Metered extends Sent {
  /** Highest resident set size seen, in bytes. */
  peakRss: number;
  /** CPU seconds the serving process spent; undefined where it is this process, the load generator's too. */
  serverCpu?: number;
  /** CPU seconds PostgreSQL's processes spent (bench/cpu.ts postgresSpan). */
  databaseCpu?: number;
}

/** Meters the server a scenario runs against, from the first measured request to the last. */
export interface Meter {
  begin(): Promise<void>;
  end(): Promise<Metered>;
}

// Sampled on a timer in the same event loop: a loop busy with requests samples late, but
// still sees the memory they hold, since RSS only falls when pages go back to the system.
let peak = 0;
setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20).unref();

/**
 * This process's meter, for servers that run in it. Scenarios run one at a time, so the
 * statements sent while one runs are its server's.
 */
export const ownMeter: Meter = (() => {
  let baseline = sentSoFar();
  let database: ReturnType<typeof postgresSpan>;
  return {
    async begin() {
      baseline = sentSoFar();
      peak = process.memoryUsage().rss;
      database = postgresSpan();
    },
    async end() {
      const now = sentSoFar();
      return {
        statements: now.statements - baseline.statements, roundTrips: now.roundTrips - baseline.roundTrips, peakRss: Math.max(peak, process.memoryUsage().rss),
        databaseCpu: database?.end(),
      };
    },
  };
})();

/** Which client drives the loads: Node's (`node`, the default) or wrk (`wrk`, bench/wrk.ts) where it can. */
export type Driver = "node" | "wrk";

export async function run(load: Load, driver: Driver = "node"): Promise<Result> {
  if (driver === "wrk" && wrkCanDrive(load)) return runWrk({ ...load, meter: load.meter ?? ownMeter });
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  let firstError: string | undefined;
  const fail = (why: string) => {
    errors++;
    firstError ??= why;
  };
  const one = (r: Request) => new Promise<void>((resolve) => {
    const start = process.hrtime.bigint();
    const headers = r.body === undefined ? load.headers : { ...load.headers, "Content-Type": "application/json" };
    const req = http.request(r.url, { method: r.method, agent, headers, timeout: 120000 }, (res) => {
      // A body is counted as it comes, and decoded only where someone reads it (a failure, or
      // `onBody`), as wrk reads one: decoding and joining every reply cost this process, on the
      // cores the servers share, time in proportion to the answer's size.
      const ok = res.statusCode === r.expect;
      const kept: Buffer[] | undefined = ok && !load.onBody ? undefined : [];
      let length = 0;
      res.on("data", (chunk: Buffer) => {
        length += chunk.length;
        kept?.push(chunk);
      });
      res.on("end", () => {
        bytes += length;
        const text = () => Buffer.concat(kept!).toString("utf8");
        if (ok) load.onBody?.(text());
        else fail(`${res.statusCode} ${text().slice(0, 300)}`);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        resolve();
      });
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (err) => {
      fail(err.message);
      resolve();
    });
    req.end(r.body);
  });
  const clients = async (total: number, deadline: bigint) => {
    let sent = 0;
    await Promise.all(Array.from({ length: load.concurrency }, async () => {
      while (sent < total && process.hrtime.bigint() < deadline) {
        sent++;
        await one(load.next());
      }
    }));
    return sent;
  };
  const span = BigInt(Math.round(load.seconds * 1e9));
  await clients(load.warmup, process.hrtime.bigint() + BigInt(Math.round((load.warmupSeconds ?? load.seconds) * 1e9)));
  latencies.length = 0;
  errors = 0;
  bytes = 0;
  firstError = undefined;
  const meter = load.meter ?? ownMeter;
  await meter.begin();
  const began = process.hrtime.bigint();
  const sent = await clients(load.requests, began + span);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const metered = await meter.end();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => percentile(latencies, p);
  return {
    requests: sent, seconds, rps: sent / seconds, p50: pct(0.5), p99: pct(0.99), latencies,
    errors, firstError, statements: metered.statements / Math.max(1, sent), roundTrips: metered.roundTrips / Math.max(1, sent), peakRss: metered.peakRss, answerBytes: bytes / Math.max(1, sent),
    ...cpuPerRequest(metered, Math.max(1, sent)),
  };
}
