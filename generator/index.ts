// The generator pipeline: load → validate → IR → emit. Gives the emitted files, or every
// diagnostic when the spec is unsound (then nothing is emitted). The CLI decides whether
// the files are written (`generate`) or compared (`check`).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadSpecs } from "./load/index.js";
import { validate, formatDiagnostic } from "./validate/index.js";
import { buildIr } from "./ir/index.js";
import { emitAll, type EmittedFile } from "./emit/index.js";
import type { MigrationState } from "./emit/migrations.js";
import { generatedPaths } from "./ir/names.js";

export type GenerateResult = { ok: true; files: EmittedFile[] } | { ok: false; errors: string[] };

/** Migration state of one API as the committed `generated/` holds it. */
export function previousStateFrom(generatedDir: string) {
  return (api: string): MigrationState => {
    const snapshotPath = join(generatedDir, generatedPaths.snapshot(api));
    const migrationsDir = join(generatedDir, generatedPaths.migrations(api));
    const existing: Record<string, string> = {};
    if (existsSync(migrationsDir)) {
      for (const name of readdirSync(migrationsDir).filter((n) => n.endsWith(".sql"))) {
        existing[name] = readFileSync(join(migrationsDir, name), "utf8");
      }
    }
    return {
      snapshot: existsSync(snapshotPath) && Object.keys(existing).length ? JSON.parse(readFileSync(snapshotPath, "utf8")) : null,
      existing,
    };
  };
}

export async function generate(root: string, opts: { specDir?: string; previousDir?: string } = {}): Promise<GenerateResult> {
  const loaded = await loadSpecs(root, opts.specDir);
  const errors = loaded.flatMap((l) => validate(l).map(formatDiagnostic));
  if (errors.length) return { ok: false, errors };
  const irs = loaded.map(buildIr);
  const { files, refusals } = emitAll(irs, previousStateFrom(opts.previousDir ?? join(root, "generated")));
  return refusals.length ? { ok: false, errors: refusals } : { ok: true, files };
}
