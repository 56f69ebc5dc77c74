// The command line: generate, check, migrate, serve, run, createsuperuser, demo-data,
// create-app-password, worker, dump, load, health_check, upgrade, shell. Parses arguments (bin/command-line.ts) and calls the generator
// or the runtime; holds no logic of its own beyond wiring and printing.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { parseCommandLine } from "./command-line.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Running from `npm run build`'s dist/, under plain node, rather than from the sources. */
const built = import.meta.url.endsWith(".js");

function exit(status: number, text: string): never {
  (status === 0 ? console.log : console.error)(text);
  process.exit(status);
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv);
  if ("exit" in parsed) exit(parsed.exit, parsed.text);
  const { run: command, values } = parsed;
  if (built && (command === "generate" || command === "check")) {
    // They import spec/ and hooks/ as TypeScript, which plain node does not load.
    exit(2, `armature ${command}: compiles spec/ from the sources; run \`make ${command}\` in a checkout (it uses tsx)`);
  }
  switch (command) {
    case "generate": {
      const { generate } = await import("../generator/index.js");
      const { writeGenerated } = await import("../generator/write/index.js");
      const result = await generate(root, { replaceDrafts: true });
      if (!result.ok) {
        for (const e of result.errors) console.error(e);
        console.error(`${result.errors.length} error(s); nothing was written.`);
        process.exit(1);
      }
      const { written, removed } = writeGenerated(join(root, "generated"), result.files);
      for (const f of written) console.log(`wrote   generated/${f}`);
      for (const f of removed) console.log(`removed generated/${f}`);
      for (const d of result.drafts) console.log(d);
      console.log(`${result.files.length} files, ${written.length} written, ${removed.length} removed`);
      return;
    }
    case "check": {
      const { generate } = await import("../generator/index.js");
      const { compareGenerated, writeGenerated } = await import("../generator/write/index.js");
      const result = await generate(root);
      if (!result.ok) {
        for (const e of result.errors) console.error(e);
        process.exit(1);
      }
      const drift = compareGenerated(join(root, "generated"), result.files);
      const total = drift.changed.length + drift.added.length + drift.removed.length;
      if (total === 0) {
        console.log(`generated/ matches spec/ (${result.files.length} files)`);
        return;
      }
      const tmp = mkdtempSync(join(tmpdir(), "armature-check-"));
      writeGenerated(tmp, result.files);
      try {
        execFileSync("diff", ["-ruN", join(root, "generated"), tmp], { stdio: "inherit" });
      } catch { /* diff exits 1 when it printed differences */ }
      rmSync(tmp, { recursive: true, force: true });
      console.error(`generated/ is out of date: ${drift.changed.length} changed, ${drift.added.length} missing, ${drift.removed.length} stale. Run make generate.`);
      process.exit(1);
    }
    default: {
      const { runCommand, UsageError } = await import("../runtime/cli.js");
      const { apis } = await import("../generated/server.js");
      const { demo, demoLogins } = await import("../demo/index.js");
      const opts = {
        port: values.port as number | undefined,
        workers: values.workers as number | undefined,
        migrate: !values["no-migrate"],
        verbose: values.verbose === true,
        username: values.username as string | undefined,
        password: values.password as string | undefined,
        token: values.token as string | undefined,
        name: values.name as string | undefined,
        file: values.file as string | undefined,
        exclude: values.exclude as Array<"changes" | "media"> | undefined,
      };
      try {
        await runCommand(command, opts, apis, demo, demoLogins);
      } catch (err) {
        if (err instanceof UsageError) exit(2, `armature ${command}: ${err.message}`);
        throw err;
      }
    }
  }
}

main(process.argv.slice(2)).catch((err) => {
  // A validation failure carries its field-keyed reasons, which say more than its message.
  const reasons = (err as { errors?: unknown }).errors;
  console.error(err instanceof Error ? err.message : err, reasons ? JSON.stringify(reasons) : "");
  process.exit(1);
});
