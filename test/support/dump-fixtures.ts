// Embedded data directories for tests that run the command line on one, made in the test's own
// process from the run's empty cluster (test/support/fresh-db.ts) and written out as a data
// directory's files. A process of the command line opening a new DATA_DIR runs initdb in a
// child, some 5 s of CPU, and migrates through PGlite's file system: with its start, some 25 s
// of CPU for a migrated one, where this takes a few. PGlite only.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Knex } from "knex";
import { migrateAll } from "../../runtime/cli.js";
import { apis } from "../../generated/server.js";
import { openEmbedded, saveDump, savedDump } from "./fresh-db.js";

/** The run's empty cluster as a tarball; made and saved for the run's other processes if none is. */
async function emptyCluster(): Promise<Blob> {
  const saved = savedDump("empty");
  if (saved) return saved;
  const db = await openEmbedded();
  try {
    const made = await db.dump();
    await saveDump("empty", made);
    return made;
  } finally {
    await db.close();
  }
}

/** Makes `dir` what a new DATA_DIR is once opened: initdb's cluster, without a table of Armature's. */
export async function newDataDir(dir: string): Promise<void> {
  await writeDataDir(dir, await emptyCluster());
}

/**
 * Makes `dir` a data directory holding a migrated database, after `setup` wrote to it what the
 * test wants there; gives what `setup` gave. `dir` must not hold one already.
 */
export async function migratedDataDir<T>(dir: string, setup: (db: Knex) => Promise<T>): Promise<T> {
  const db = await openEmbedded(await emptyCluster());
  try {
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
