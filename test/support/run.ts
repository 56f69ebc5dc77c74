// Which test run this process belongs to. In parallel mode mocha runs the files in worker
// processes it starts (workerpool's worker.js); serially, in its own process.

export const inWorker = /[\\/]worker\.c?js$/.test(process.argv[1] ?? "");

/** The mocha process of this run: the parent of a worker, or this process. */
export const runPid = inWorker ? process.ppid : process.pid;

/** Whether a process with this id is running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
