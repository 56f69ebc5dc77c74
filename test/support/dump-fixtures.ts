// Embedded data directories for tests that run the command line on one, made in the test's own
// process from the run's empty cluster (test/support/fresh-db.ts) and written out as a data
// directory's files. A process of the command line opening a new DATA_DIR runs initdb in a
// child, some 5 s of CPU, and migrates through PGlite's file system: with its start, some 25 s
// of CPU for a migrated one, where this takes a few. PGlite only.
import type { Knex } from "knex";
import { migrateAll } from "../../runtime/cli.js";
import { apis } from "../../generated/server.js";
import { emptyClusterDump, openEmbedded, unpackCluster } from "./fresh-db.js";

/** Makes `dir` what a new DATA_DIR is once opened: initdb's cluster, without a table of Armature's. */
export async function newDataDir(dir: string): Promise<void> {
  await unpackCluster(await emptyClusterDump(), dir);
}

/**
 * Makes `dir` a data directory holding a migrated database, after `setup` wrote to it what the
 * test wants there; gives what `setup` gave. `dir` must not hold one already.
 */
export async function migratedDataDir<T>(dir: string, setup: (db: Knex) => Promise<T>): Promise<T> {
  const db = await openEmbedded(await emptyClusterDump());
  try {
    await migrateAll(db.knex, apis);
    const made = await setup(db.knex);
    // Every change in the data files, so the directory opens without replaying the log.
    await db.knex.raw("CHECKPOINT");
    await unpackCluster(await db.dump(), dir);
    return made;
  } finally {
    await db.close();
  }
}
