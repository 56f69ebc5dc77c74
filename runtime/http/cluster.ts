// Serving from several worker processes on one port (node:cluster), as the primary sees it:
// it forks them, starts another when one that served dies, and on SIGTERM or SIGINT passes
// the signal on, waits while each drains and exits (runtime/http/lifecycle.ts), then exits 0,
// or 1 when one did not stop cleanly. A worker that dies before it served stops them all:
// another would fail the same way. What a worker runs is the caller's business.
import cluster, { type Worker } from "node:cluster";

export interface PrimaryOptions {
  workers: number;
  /** How long a signalled worker may take to stop (drain and release) before it is killed. */
  stopWithinMs: number;
  /** Called once, when every worker first serves, with the port they share. */
  serving(port: number): void;
}

export function superviseWorkers(opts: PrimaryOptions): void {
  const live = new Set<Worker>();
  const served = new Set<Worker>();
  let stopping = false;
  let failed = false;
  let announced = false;

  const fork = () => live.add(cluster.fork());
  const stopAll = (signal: NodeJS.Signals) => {
    // Every signal is passed on: a worker takes one that echoes the first (a terminal's Ctrl-C
    // reaches the whole process group) as the same request, and a later one as "exit now".
    for (const worker of live) worker.process.kill(signal);
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`workers still running after ${opts.stopWithinMs / 1000} s: killing them`);
      for (const worker of live) worker.process.kill("SIGKILL");
      process.exit(1);
    }, opts.stopWithinMs).unref();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) console.log(`${signal}: stopping ${live.size} worker(s)`);
    stopAll(signal);
  };

  cluster.on("listening", (worker, address) => {
    served.add(worker);
    if (!announced && served.size >= opts.workers) {
      announced = true;
      opts.serving(address.port);
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    live.delete(worker);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!stopping && !served.has(worker)) {
      console.error(`worker ${worker.process.pid} ended (${how}) before it served: stopping the others`);
      failed = true;
      stopAll("SIGTERM");
    } else if (!stopping) {
      console.error(`worker ${worker.process.pid} ended (${how}): starting another`);
      fork();
      return;
    }
    if (code !== 0) failed = true;
    if (live.size > 0) return;
    if (failed) console.error("stopped; not every worker ended cleanly");
    else console.log("all workers stopped cleanly");
    process.exit(failed ? 1 : 0);
  });
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  for (let i = 0; i < opts.workers; i++) fork();
}
