// The generator pipeline: load → validate → IR → emit. Gives the emitted files, or every
// diagnostic when the spec is unsound (then nothing is emitted). The CLI decides whether
// the files are written (`generate`) or compared (`check`).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadSpecs } from "./load/index.js";
import { validate, formatDiagnostic } from "./validate/index.js";
import { buildIr } from "./ir/index.js";
import { emitAll, type EmittedFile } from "./emit/index.js";
import type { MigrationState } from "./emit/migrations.js";
import { generatedPaths } from "./ir/names.js";

/** What `generate` did with migrations not yet committed, one sentence each (empty when there were none). */
export type GenerateResult = { ok: true; files: EmittedFile[]; drafts: string[] } | { ok: false; errors: string[] };

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

/** Git's answer, or null where there is no repository, no commit yet or no such file. */
function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

/**
 * Migration state of one API as the last commit holds it, with the migrations written since
 * (drafts): the next migration is planned from the commit, so it replaces the drafts rather
 * than adding to them, as `prisma migrate dev` does while a maintainer iterates. A committed
 * migration is never replaced: it may have reached any database.
 */
function committedStateFrom(generatedDir: string, current: (api: string) => MigrationState) {
  return (api: string): MigrationState & { drafts: string[] } => {
    const now = current(api);
    const dir = join(generatedDir, generatedPaths.migrations(api));
    const tracked = existsSync(dir) ? git(dir, ["ls-tree", "--name-only", "HEAD", "."]) : null;
    if (tracked === null) return { ...now, drafts: [] };
    const committed = new Set(tracked.split("\n").filter(Boolean));
    const drafts = Object.keys(now.existing).filter((name) => !committed.has(name)).sort();
    const existing = Object.fromEntries(Object.entries(now.existing).filter(([name]) => committed.has(name)));
    // The commit's snapshot even with no draft here: a generation since may have moved rows out
    // of it into another stream's draft, which this one replaces.
    const snapshot = Object.keys(existing).length ? git(join(generatedDir, api), ["show", "HEAD:./schema.json"]) : null;
    if (!drafts.length && snapshot === null) return { ...now, drafts };
    return { snapshot: snapshot === null ? null : JSON.parse(snapshot), existing, drafts };
  };
}

export async function generate(root: string, opts: { specDir?: string; previousDir?: string; replaceDrafts?: boolean } = {}): Promise<GenerateResult> {
  const loaded = await loadSpecs(root, opts.specDir);
  const errors = loaded.flatMap((l) => validate(l).map(formatDiagnostic));
  if (errors.length) return { ok: false, errors };
  const irs = loaded.map(buildIr);
  const generatedDir = opts.previousDir ?? join(root, "generated");
  const current = previousStateFrom(generatedDir);
  const drafted = new Map<string, { drafts: Record<string, string>; committed: string[] }>();
  const previous = opts.replaceDrafts
    ? (api: string) => {
      const state = committedStateFrom(generatedDir, current)(api);
      const all = current(api).existing;
      if (state.drafts.length) drafted.set(api, { drafts: Object.fromEntries(state.drafts.map((d) => [d, all[d]])), committed: Object.keys(state.existing) });
      return state;
    }
    : current;
  const { files, refusals } = emitAll(irs, previous);
  if (refusals.length) return { ok: false, errors: refusals };
  return { ok: true, files, drafts: [...drafted].map(([api, d]) => draftOutcome(api, d.drafts, d.committed, files)) };
}

/** What became of an API's uncommitted migrations, in words. */
function draftOutcome(api: string, drafts: Record<string, string>, committed: string[], files: EmittedFile[]): string {
  const dir = generatedPaths.migrations(api);
  const was = Object.keys(drafts).map((d) => `generated/${dir}/${d}`).join(", ");
  const made = files.find((f) => f.path.startsWith(`${dir}/`) && !committed.includes(f.path.slice(dir.length + 1)));
  const rerun = "; a database that applied it must be made anew (make clean, for the embedded one)";
  if (!made) return `removed ${was}, not yet committed: the spec is back to the committed schema${rerun}`;
  if (drafts[made.path.slice(dir.length + 1)] === made.contents) return `kept generated/${made.path}, not yet committed: the spec still makes it`;
  return `replaced ${was}, not yet committed, with generated/${made.path}${rerun}`;
}
