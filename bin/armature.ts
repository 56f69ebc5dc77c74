// The command line: generate, check, migrate, serve, createsuperuser, demo-data,
// create-app-password. Parses arguments and calls the generator or the runtime; holds no
// logic of its own beyond wiring and printing.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function usage(): never {
  console.error(`usage: armature <command> [options]

commands:
  generate                 compile spec/ into generated/
  check                    regenerate in memory; print a diff and exit 1 if generated/ drifted
  migrate                  apply pending migrations to the database
  serve [--port N]         migrate, then serve every API
  createsuperuser --username U --password P [--token KEY]
                           create an administrator and an API token for it
  demo-data                load the demo data set once (skipped when already loaded)
  create-app-password --username U [--name NAME]
                           create a WordPress-style application password (HTTP Basic) for a user
  run [--port N]           migrate, load demo data once, ensure an admin token, serve
  worker                   migrate, then run a queue worker (webhook deliveries) without serving

environment: DATABASE_URL (PostgreSQL; default: embedded PGlite in DATA_DIR, ./.data),
             PORT (8080), HOST (127.0.0.1), PUBLIC_URL, WP_API_ROOT (/wp-json),
             SHUTDOWN_TIMEOUT (30: seconds SIGTERM/SIGINT waits for requests in flight),
             QUEUE_WORKER (1; 0: serve and run start no queue worker), QUEUE_* (README)`);
  process.exit(2);
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case "generate": {
      const { generate } = await import("../generator/index.js");
      const { writeGenerated } = await import("../generator/write/index.js");
      const result = await generate(root);
      if (!result.ok) {
        for (const e of result.errors) console.error(e);
        console.error(`${result.errors.length} error(s); nothing was written.`);
        process.exit(1);
      }
      const { written, removed } = writeGenerated(join(root, "generated"), result.files);
      for (const f of written) console.log(`wrote   generated/${f}`);
      for (const f of removed) console.log(`removed generated/${f}`);
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
    case "migrate": case "serve": case "run": case "createsuperuser": case "demo-data": case "create-app-password": case "worker": {
      const { runCommand } = await import("../runtime/cli.js");
      const { apis } = await import("../generated/server.js");
      const { demo, demoLogins } = await import("../demo/index.js");
      await runCommand(command, {
        port: option(args, "port"),
        username: option(args, "username"),
        password: option(args, "password"),
        token: option(args, "token"),
        name: option(args, "name"),
      }, apis, demo, demoLogins);
      return;
    }
    default:
      usage();
  }
}

main(process.argv.slice(2)).catch((err) => {
  // A validation failure carries its field-keyed reasons, which say more than its message.
  const reasons = (err as { errors?: unknown }).errors;
  console.error(err instanceof Error ? err.message : err, reasons ? JSON.stringify(reasons) : "");
  process.exit(1);
});
