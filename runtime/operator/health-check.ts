// `armature health_check`: the checks /health/ready/ makes (runtime/http/health.ts, the same
// functions) and what an install needs besides, a queue worker seen lately and a writable media
// folder, one line each; exit status 0 when all work, else 1. Migrates nothing, writes nothing.
import type { Config } from "../config.js";
import type { ApiDescriptor } from "../descriptor.js";
import { openDatabase } from "../db/connect.js";
import { DirInUse } from "../db/dir-lock.js";
import { migrationSets } from "../db/runtime-migrations.js";
import { mediaCheck, operatorChecks, type Checks } from "../http/health.js";

export async function healthCheck(apis: ApiDescriptor[], config: Config): Promise<{ healthy: boolean; lines: string[] }> {
  let checks: Checks;
  try {
    const db = await openDatabase(config);
    try {
      checks = await operatorChecks(db.knex, migrationSets(apis), config.mediaRoot);
    } finally {
      await db.close();
    }
  } catch (err) {
    // The embedded database belongs to the one process that has it open.
    const database = err instanceof DirInUse
      ? "in use by a running server (the embedded database has one process): ask that server's /health/ready/"
      : `unavailable (${(err as { code?: string }).code ?? (err instanceof Error ? err.message : "error")})`;
    checks = { database, migrations: "unknown", "queue worker": "unknown", media: await mediaCheck(config.mediaRoot) };
  }
  const failing = Object.entries(checks).filter(([, v]) => v !== "working").map(([k]) => k);
  return {
    healthy: failing.length === 0,
    lines: [...Object.entries(checks).map(([k, v]) => `${k}: ${v}`), failing.length ? `unhealthy: ${failing.join(", ")}` : "healthy"],
  };
}
