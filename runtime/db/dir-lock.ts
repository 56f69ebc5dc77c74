// One process per embedded data directory: PGlite runs inside the process that opens it, so two
// processes on one directory would each keep their own copy and lose the other's writes. Holds
// a listening socket named after the directory, which the operating system frees when the
// holder exits or dies, so no crash leaves the directory locked. Gives a release function;
// knows nothing of PGlite.
import net from "node:net";
import { createHash } from "node:crypto";
import { realpathSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export interface DirLock {
  release(): Promise<void>;
}

export class DirInUse extends Error {
  constructor(readonly dir: string) {
    super(`${dir} is in use by another Armature process: the embedded database allows one process per data directory. Stop that process, set DATA_DIR to another directory, or set DATABASE_URL to share a PostgreSQL database between processes.`);
  }
}

/**
 * Where the socket lives. Linux's abstract namespace and Windows' pipe namespace forget a name
 * as soon as its holder is gone; elsewhere a socket file in the directory is left behind by a
 * crash and `lockDataDir` tells a stale one from a live one by connecting to it.
 */
function socketFor(dir: string, platform: NodeJS.Platform): { path: string; file: boolean } {
  const name = `armature-pglite-${createHash("sha256").update(dir).digest("hex").slice(0, 32)}`;
  if (platform === "linux") return { path: `\0${name}`, file: false };
  if (platform === "win32") return { path: `\\\\?\\pipe\\${name}`, file: false };
  return { path: join(dir, ".armature.lock.sock"), file: true };
}

function listen(server: net.Server, path: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const fail = (err: NodeJS.ErrnoException) => resolve(err);
    server.once("error", fail);
    server.listen(path, () => {
      server.off("error", fail);
      resolve(undefined);
    });
  });
}

/** Whether something accepts connections on the socket file `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(path, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", (err: NodeJS.ErrnoException) => resolve(err.code !== "ECONNREFUSED" && err.code !== "ENOENT"));
  });
}

/**
 * Locks the existing directory `dir` for this process; rejects with DirInUse when another holds
 * it. `platform` picks the mechanism (tests take the socket-file one on Linux too).
 */
export async function lockDataDir(dir: string, platform: NodeJS.Platform = process.platform): Promise<DirLock> {
  const real = realpathSync(dir);
  const { path, file } = socketFor(real, platform);
  const server = net.createServer((socket) => socket.destroy());
  let err = await listen(server, path);
  if (err?.code === "EADDRINUSE" && file && !(await answers(path))) {
    // Left by a process that died: nobody listens behind it.
    unlinkSync(path);
    err = await listen(server, path);
  }
  if (err?.code === "EADDRINUSE") throw new DirInUse(real);
  if (err) throw err;
  // The lock must never be what keeps a finished process alive.
  server.unref();
  return {
    release: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
