// Embedded data directories for tests that run the command line on one, made in the test's own
// process: an in-memory cluster (the run's empty one, test/support/fresh-db.ts) migrated and
// written out as a data directory's files. A process of the command line does the same on a
// new DATA_DIR with initdb in a child and every migration through PGlite's file system: some
// 25 s of CPU where this takes a few. PGlite only.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Knex } from "knex";
import { migrateAll } from "../../runtime/cli.js";
import { apis } from "../../generated/server.js";
import { openEmbedded, saveDump, savedDump } from "./fresh-db.js";

/**
 * Makes `dir` a data directory holding a migrated database, after `setup` wrote to it what the
 * test wants there; gives what `setup` gave. `dir` must not hold one already.
 */
export async function migratedDataDir<T>(dir: string, setup: (db: Knex) => Promise<T>): Promise<T> {
  const empty = savedDump("empty");
  const db = await openEmbedded(empty);
  try {
    // The run's first: the new cluster is the empty one the others start from.
    if (!empty) await saveDump("empty", await db.dump());
    await migrateAll(db.knex, apis);
    const made = await setup(db.knex);
    // Every change in the data files, so the directory opens without replaying the log.
    await db.knex.raw("CHECKPOINT");
    await writeDataDir(dir, await db.dump());
    return made;
  } finally {
    await db.close();
  }
}

/** Unpacks a cluster's tarball (PGlite's dumpDataDir: paths relative to the data directory) into `dir`. */
async function writeDataDir(dir: string, tarball: Blob): Promise<void> {
  mkdirSync(dir, { recursive: true });
  // Its paths start with "/", which tar takes off and says so.
  execFileSync("tar", ["-x", "-f", "-", "-C", dir], { input: Buffer.from(await tarball.arrayBuffer()), stdio: ["pipe", "ignore", "pipe"] });
}
