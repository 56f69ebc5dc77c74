// What loading the command line brings into a serving process. node:domain, once loaded,
// wraps every EventEmitter and promise made from then on (an async hook of its own): a prefix
// detail cost the server 7 % more CPU with it. Only `armature shell` needs node:repl, which
// loads it, so the shell imports it when it starts.
import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

describe("the serving process's modules", () => {
  it("the command line's commands and the server load no node:domain (nor node:repl)", async () => {
    // A process of its own: this one's modules are whatever the other test files loaded.
    const script = "await import('./runtime/cli.ts'); await import('./runtime/server.ts'); " +
      "console.log(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (domain|repl)$/.test(m))))";
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).to.deep.equal([]);
  });
});
