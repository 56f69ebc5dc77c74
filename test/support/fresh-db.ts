// Empty embedded databases for tests that need one of their own (a migration applied to an
// empty database, the engine on tables of a test's own): each a copy of a data directory PGlite
// initialised once per process, opened through the runtime's openDatabase as any data directory
// is. A new in-memory instance runs initdb every time, some 2.5 s of CPU; a copy opens in about
// 1 s. Gives the Database; its close() also removes the copy. PGlite only: nothing here talks
// to PostgreSQL.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { openDatabase, type Database } from "../../runtime/db/connect.js";

const made: string[] = [];
let template: Promise<string> | undefined;

process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * The process's initialised, never opened since data directory: made as openDatabase makes one
 * (PGlite's initdb, in a child process), which under the test runner's loader cannot resolve
 * PGlite's module itself.
 */
function templateDir(): Promise<string> {
  template ??= (async () => {
    const dir = tempDir("armature-template-");
    const script = `const { PGlite } = await import("@electric-sql/pglite");
const db = new PGlite(${JSON.stringify(dir)});
await db.waitReady;
await db.close();`;
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    return dir;
  })();
  return template;
}

/** A new, empty embedded database of the caller's own: what `openDatabase({ dataDir: "memory://" })` gives, from a copy. */
export async function freshEmbeddedDatabase(): Promise<Database> {
  const source = await templateDir();
  const dir = tempDir("armature-fresh-");
  cpSync(source, dir, { recursive: true });
  const db = await openDatabase({ dataDir: dir });
  return {
    ...db,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
