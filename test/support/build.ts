// The compiled server for the tests that run it under plain node: built once per test process,
// as `npm run build` builds dist/ (tsc with tsconfig.build.json, then bin/build-assets), but into
// a folder of this process's own under .build/, so test processes running side by side never
// rebuild each other's output. Removed when the process exits.
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
let building: Promise<string> | undefined;

/** The path of the built command line (`<out>/bin/armature.js`), building it on the first call. */
export function builtCli(): Promise<string> {
  building ??= (async () => {
    const out = join(".build", `test-${process.pid}`);
    rmSync(out, { recursive: true, force: true });
    process.on("exit", () => rmSync(out, { recursive: true, force: true }));
    await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--outDir", out]);
    await run(process.execPath, [join(out, "bin", "build-assets.js")]);
    return join(out, "bin", "armature.js");
  })();
  return building;
}
