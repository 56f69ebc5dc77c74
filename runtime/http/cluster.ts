// Serving from several worker processes on one port (node:cluster), as the primary sees it:
// it forks them, starts another when one that served dies, and on SIGTERM or SIGINT asks
// each to stop, waits while each drains and exits (runtime/http/lifecycle.ts), then exits 0,
// or 1 when one did not stop cleanly. A worker that dies before it served stops them all:
// another would fail the same way. What a worker runs is the caller's business.
import cluster, { type Worker } from "node:cluster";
import { STOP_MESSAGE } from "./lifecycle.js";

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
  let signals = 0;
  // Stopping is asked by message, which a worker that already has the signal (sent to the whole
  // process group, as a terminal's Ctrl-C is) takes as the same request however late it comes.
  const askToStop = () => {
    for (const worker of live) if (worker.isConnected()) worker.send(STOP_MESSAGE); else worker.process.kill("SIGTERM");
    beginStopping();
  };
  const beginStopping = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`workers still running after ${opts.stopWithinMs / 1000} s: killing them`);
      for (const worker of live) worker.process.kill("SIGKILL");
      process.exit(1);
    }, opts.stopWithinMs).unref();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal to this process is passed on: a worker takes it as "exit now".
    if (++signals > 1) {
      for (const worker of live) worker.process.kill(signal);
      return;
    }
    console.log(`${signal}: stopping ${live.size} worker(s)`);
    askToStop();
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
    if (!stopping && code === 0 && !signal) {
      // A worker ends cleanly only when told to stop: a signal sent to the whole process group
      // reached it before this process's own handler ran. None is replaced.
      askToStop();
    } else if (!stopping && !served.has(worker)) {
      console.error(`worker ${worker.process.pid} ended (${how}) before it served: stopping the others`);
      failed = true;
      askToStop();
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
