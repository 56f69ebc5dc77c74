// The data-directory lock on its own: a second holder is refused naming the directory, a
// released lock is free again, and the socket-file mechanism (other platforms) takes over a
// file left by a process that died, but not one a live process listens on.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirInUse, lockDataDir } from "../../runtime/db/dir-lock.js";

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("the second lock was granted");
}

/** Runs node with `script` until it exits, as a process that holds or leaves a socket file. */
function node(script: string): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, ["-e", script], { stdio: "ignore" }).on("close", (code, signal) => resolve(signal ? null : code)));
}

for (const platform of ["linux", "darwin"] as const) {
  describe(`data directory lock (${platform === "linux" ? "abstract socket" : "socket file"})`, () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "armature-lock-"))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("refuses a second holder with the directory's real path, and is free again once released", async function () {
      if (platform === "linux" && process.platform !== "linux") this.skip();
      const first = await lockDataDir(dir, platform);
      const err = await refusal(lockDataDir(join(dir, "."), platform));
      expect(err).to.be.instanceOf(DirInUse);
      expect((err as Error).message).to.include(`${realpathSync(dir)} is in use by another Armature process`);
      await first.release();
      const again = await lockDataDir(dir, platform);
      await again.release();
    });

    it("does not hold the event loop: a process that takes the lock and does nothing else exits", async function () {
      if (platform === "linux" && process.platform !== "linux") this.skip();
      const module = JSON.stringify(new URL("../../runtime/db/dir-lock.ts", import.meta.url).href);
      const script = `import(${module}).then((m) => m.lockDataDir(${JSON.stringify(dir)}, ${JSON.stringify(platform)}))`;
      expect(await new Promise((resolve) => spawn(process.execPath, ["--import", "tsx", "-e", script], { stdio: "ignore" }).on("close", resolve))).to.equal(0);
    });
  });
}

describe("data directory lock (socket file left behind)", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "armature-lock-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const socket = () => join(realpathSync(dir), ".armature.lock.sock");

  it("takes over the file of a process killed while holding it", async () => {
    const killed = await node(`require("net").createServer().listen(${JSON.stringify(socket())}, () => process.kill(process.pid, "SIGKILL"))`);
    expect(killed).to.equal(null);
    expect(existsSync(socket()), "the dead process left its socket file").to.equal(true);
    const lock = await lockDataDir(dir, "darwin");
    await lock.release();
  });
});
