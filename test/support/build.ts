// The compiled server for the tests that run it under plain node, built as `npm run build`
// builds dist/ (tsc with tsconfig.build.json, then bin/build-assets) but into a folder of the
// test run's own under .build/: once per run, whichever of the run's worker processes asks
// first, the others waiting for it (tsc takes some 15 s of CPU). A run is the mocha process:
// the parent of parallel workers, or the process itself when run serially. The run's global
// teardown removes the folder (removeRunBuild); a serial run removes it as it exits.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { alive, inWorker, runPid } from "./run.js";

const run = promisify(execFile);
let building: Promise<string> | undefined;

const buildOf = (pid: number) => join(".build", `test-${pid}`);

/** Removes the build of the run whose mocha process is `pid`. */
export function removeRunBuild(pid: number): void {
  rmSync(buildOf(pid), { recursive: true, force: true });
}

/** The path of the built command line (`<out>/bin/armature.js`), building it on the run's first call. */
export function builtCli(): Promise<string> {
  building ??= (async () => {
    const out = buildOf(runPid);
    const cli = join(out, "bin", "armature.js");
    const done = join(out, ".done");
    const failed = join(out, ".failed");
    const builder = join(out, ".builder");
    if (!inWorker) process.on("exit", () => rmSync(out, { recursive: true, force: true }));
    mkdirSync(".build", { recursive: true });
    try {
      // The directory is the lock: one process of the run makes it and builds.
      mkdirSync(out);
    } catch {
      for (;;) {
        if (existsSync(done)) return cli;
        if (existsSync(failed)) throw new Error(`the build in ${out} failed: ${readFileSync(failed, "utf8")}`);
        const pid = Number(existsSync(builder) ? readFileSync(builder, "utf8") : NaN);
        if (Number.isInteger(pid) && !alive(pid)) throw new Error(`the build in ${out} was left unfinished by process ${pid}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    writeFileSync(builder, String(process.pid));
    try {
      await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--outDir", out]);
      await run(process.execPath, [join(out, "bin", "build-assets.js")]);
    } catch (err) {
      writeFileSync(failed, err instanceof Error ? err.message : String(err));
      throw err;
    }
    writeFileSync(done, "");
    return cli;
  })();
  return building;
}
