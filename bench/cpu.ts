// CPU time from /proc: a serving process's, and PostgreSQL's when its server runs on this
// machine. On two cores shared by the servers, PostgreSQL and the load generator, a scenario's
// latency moves with whatever else the machine does; the CPU a request costs each of them moves
// far less, and says where a floor's lead comes from (the statement, or the server around it).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { parse } from "pg-connection-string";
import type { Metered, Result } from "./load.js";

/** Clock ticks a second, as /proc counts CPU time. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's name and its user and system CPU, in seconds, from the text of /proc/<pid>/stat. */
export function parseStat(text: string): { name: string; seconds: number } {
  // The name is in parentheses and may itself hold spaces and parentheses: the fields follow the last.
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime.
  return { name: text.slice(open + 1, close), seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS };
}

const stat = (pid: number | string): { name: string; seconds: number } | undefined => {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    // Gone meanwhile, or not Linux.
    return undefined;
  }
};

/** The CPU seconds process `pid` has used so far; undefined where /proc does not tell. */
export const processCpu = (pid: number): number | undefined => stat(pid)?.seconds;

/** Whether the bench's database is a PostgreSQL server on this machine (`measureLocalPostgres`). */
let local = false;

/** Says whether the bench's database is a PostgreSQL server on this machine, whose processes' CPU is its. */
export function measureLocalPostgres(yes: boolean): void {
  local = yes;
}

/**
 * Whether a database URL names a server on this machine: loopback, or a Unix socket (no host,
 * or a directory). Read by pg's own parser, as the servers read DATABASE_URL: a URL with a
 * socket directory and no host (`postgres://u@/db?host=/run/postgresql`) is no WHATWG URL.
 */
export function onThisMachine(url: string): boolean {
  if (!url) return false;
  const host = parse(url).host ?? "";
  return host === "" || host.startsWith("/") || host === "localhost" || host.startsWith("127.") || host === "::1" || host === "[::1]";
}

/**
 * Whether each process seen so far is a PostgreSQL one, by pid: a process's name is read once,
 * and the others' stat files are not read again at every sample. A pid is taken for the process
 * it was when first read; Linux hands pids out again only once its counter wraps (32,768 here),
 * more processes than a bench run starts.
 */
const isPostgres = new Map<string, boolean>();

/** The CPU seconds each PostgreSQL process of this machine has used so far, by pid; undefined where /proc cannot be read. */
function postgresTimes(): Map<string, number> | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const times = new Map<string, number>();
  for (const pid of pids) {
    if (isPostgres.get(pid) === false) continue;
    const s = stat(pid);
    if (!s) continue;
    isPostgres.set(pid, s.name === "postgres");
    if (s.name === "postgres") times.set(pid, s.seconds);
  }
  return times;
}

/** How often a span reads PostgreSQL's processes: a process that ends takes the time since its last reading with it. */
const SAMPLE_MS = 100;

/**
 * The CPU every PostgreSQL process of this machine spends from now until `end` (backends, the
 * WAL writer, the checkpointer, autovacuum: what a scenario's statements cost it, however it
 * spends it); undefined unless the bench's database is such a server (`measureLocalPostgres`):
 * one elsewhere, or embedded in the serving process, is not seen. Each process's time is taken
 * apart, read every SAMPLE_MS: summed at both ends alone, an autovacuum worker that ended
 * meanwhile took its whole time off the total, and a scenario came out at -108 ms a request.
 */
export function postgresSpan(): { end(): number } | undefined {
  if (!local) return undefined;
  const first = postgresTimes();
  if (!first?.size) return undefined;
  const base = new Map(first);
  const last = new Map(first);
  const sample = () => {
    for (const [pid, seconds] of postgresTimes() ?? []) {
      // Started during the span: all of its time is the span's.
      if (!base.has(pid)) base.set(pid, 0);
      last.set(pid, seconds);
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    end() {
      clearInterval(timer);
      sample();
      let total = 0;
      for (const [pid, seconds] of last) total += seconds - base.get(pid)!;
      return total;
    },
  };
}

/** CPU seconds between two readings, undefined where either is. */
export const spent = (before: number | undefined, after: number | undefined): number | undefined =>
  before === undefined || after === undefined ? undefined : after - before;

/** A result's CPU figures: a meter's seconds as ms per request sent. */
export const cpuPerRequest = (metered: Metered, sent: number): Pick<Result, "serverCpu" | "databaseCpu"> => ({
  serverCpu: metered.serverCpu === undefined ? undefined : (1000 * metered.serverCpu) / sent,
  databaseCpu: metered.databaseCpu === undefined ? undefined : (1000 * metered.databaseCpu) / sent,
});
