// Embedded data directories for the tests that start armature processes on PGlite. A new
// directory costs initdb and the 52 migrations on the emulated file system (over 10 s of CPU,
// where the same work in memory takes a fraction): so a test run makes each kind once, as a
// template, and a test that does not test that work itself starts from a copy. A template is
// made in memory by the functions the command line runs (a cluster loaded from the run's dump of
// an empty one, test/support/fresh-db.ts), dumped, and unpacked into a directory, which PGlite
// opens as any other. Made once per run whichever of the run's worker processes asks first, the
// others waiting for it, as test/support/build.ts builds the CLI; the run's global setup and
// teardown remove them (removeRunDataDirs), a serial run as it exits. PGlite only.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Knex } from "knex";
import { emptyClusterDump, openEmbedded, unpackCluster } from "./fresh-db.js";
import { alive, inWorker, runPid } from "./run.js";

/** The administrator the migrated template holds, as `armature createsuperuser` makes it. */
export const TEMPLATE_ADMIN = { username: "admin", password: "admin-password", token: "0123456789abcdef0123456789abcdef01234567" } as const;

/** `initialized`: initdb only, never migrated. `migrated`: as `armature createsuperuser` leaves it, every migration, the shipped jobs and TEMPLATE_ADMIN. */
export type Template = "initialized" | "migrated";

const runDirOf = (pid: number) => join(tmpdir(), `armature-data-dirs-${pid}`);

/** Removes the templates of the run whose mocha process is `pid`. */
export function removeRunDataDirs(pid: number): void {
  rmSync(runDirOf(pid), { recursive: true, force: true });
}

if (!inWorker) process.on("exit", () => removeRunDataDirs(runPid));

/** What `armature createsuperuser` does on a new database: migrations, the jobs, the admin. */
async function migrateLikeTheCommandLine(db: Knex): Promise<void> {
  // Imported here: the run's hooks import this module for its cleanup alone.
  const { configFromEnv } = await import("../../runtime/config.js");
  const { ensureSuperuser, migrateAll } = await import("../../runtime/cli.js");
  const { syncJobs } = await import("../../runtime/features/jobs/index.js");
  const { apis } = await import("../../generated/server.js");
  await migrateAll(db, apis);
  await syncJobs(db, apis, configFromEnv().jobsRoots);
  await ensureSuperuser(db, apis, TEMPLATE_ADMIN.username, TEMPLATE_ADMIN.password, TEMPLATE_ADMIN.token);
}

/** The template of `kind` as a dump, made in memory from the run's dump of an empty cluster. */
async function clusterDump(kind: Template): Promise<Blob> {
  const empty = await emptyClusterDump();
  if (kind === "initialized") return empty;
  const db = await openEmbedded(empty);
  try {
    await migrateLikeTheCommandLine(db.knex);
    // Its pages written to the files: a copy then starts without replaying the migrations' log.
    await db.knex.raw("CHECKPOINT");
    return await db.dump();
  } finally {
    await db.close();
  }
}

/** Waits for the template another process of the run is making in `slot`. */
async function madeByAnother(slot: string, dataDir: string): Promise<string> {
  for (;;) {
    if (existsSync(join(slot, ".done"))) return dataDir;
    if (existsSync(join(slot, ".failed"))) throw new Error(`the template in ${slot} failed: ${readFileSync(join(slot, ".failed"), "utf8")}`);
    const maker = join(slot, ".maker");
    const pid = Number(existsSync(maker) ? readFileSync(maker, "utf8") : NaN);
    if (Number.isInteger(pid) && !alive(pid)) throw new Error(`the template in ${slot} was left unfinished by process ${pid}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const making = new Map<Template, Promise<string>>();

/** The run's template directory of `kind`, made on the run's first call. Copy it; never open it. */
function template(kind: Template): Promise<string> {
  let made = making.get(kind);
  if (!made) {
    made = (async () => {
      const slot = join(runDirOf(runPid), kind);
      const dataDir = join(slot, "data");
      mkdirSync(runDirOf(runPid), { recursive: true });
      try {
        // The slot is the lock: one process of the run makes it.
        mkdirSync(slot);
      } catch {
        return madeByAnother(slot, dataDir);
      }
      writeFileSync(join(slot, ".maker"), String(process.pid));
      try {
        await unpackCluster(await clusterDump(kind), dataDir);
      } catch (err) {
        writeFileSync(join(slot, ".failed"), err instanceof Error ? err.message : String(err));
        throw err;
      }
      writeFileSync(join(slot, ".done"), "");
      return dataDir;
    })();
    making.set(kind, made);
  }
  return made;
}

/** Makes the run's templates of `kinds` unless a process of the run did: for a hook with a bound of its own. */
export async function makeTemplates(...kinds: Template[]): Promise<void> {
  // One after the other: the first makes the run's empty cluster, the next starts from it.
  for (const kind of kinds) await template(kind);
}

/** A new embedded data directory of the caller's own, a copy of the run's `kind` template; the caller removes it. */
export async function dataDirFrom(kind: Template, prefix = "armature-data-"): Promise<string> {
  const source = await template(kind);
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(source, dataDir, { recursive: true });
  return dataDir;
}
