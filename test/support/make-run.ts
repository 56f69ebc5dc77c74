// What `make run` and `npm start` start, read from the Makefile and package.json so that a test
// or the bench starts the same thing, and the resident memory of such a process with the
// processes it started (as an operator's `ps` shows it). Linux only: the memory comes from /proc.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The Makefile's `run` recipe as environment and node options:
 * `[NAME=value ...] node <options> bin/armature.ts run [$(ARGS)]`, over continued lines.
 */
export function runRecipe(): { env: Record<string, string>; options: string[] } {
  const makefile = readFileSync(join(root, "Makefile"), "utf8").replace(/\\\n\t\s*/g, " ");
  const recipe = /^run:.*\n\t((?:\w+=\S+\s+)*)node (.*) bin\/armature\.ts run(?: \$\(ARGS\))?$/m.exec(makefile);
  if (!recipe) throw new Error("the Makefile's run recipe is not `[NAME=value ...] node <options> bin/armature.ts run [$(ARGS)]`");
  const env = Object.fromEntries(recipe[1].trim().split(/\s+/).filter(Boolean).map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
  return { env, options: recipe[2].split(/\s+/) };
}

/**
 * package.json's `start` script (how a serving process is started in production) as environment,
 * node options and the command's arguments: `[NAME=value ...] node <options> dist/bin/armature.js <args>`.
 */
export function startScript(): { env: Record<string, string>; options: string[]; args: string[] } {
  const script = String(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start);
  const start = /^((?:\w+=\S+\s+)*)node ((?:--\S+\s+)*)dist\/bin\/armature\.js (.*)$/.exec(script);
  if (!start) throw new Error("package.json's start script is not `[NAME=value ...] node <options> dist/bin/armature.js <args>`");
  const env = Object.fromEntries(start[1].trim().split(/\s+/).filter(Boolean).map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
  return { env, options: start[2].trim().split(/\s+/).filter(Boolean), args: start[3].trim().split(/\s+/) };
}

/** VmRSS of a process and of every process it started (the TypeScript loader's esbuild service), in MB. */
export function residentMb(pid: number): number {
  let kb = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${entry}/status`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    if (Number(entry) !== pid && !descends(Number(entry), pid)) continue;
    kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

function descends(pid: number, ancestor: number): boolean {
  for (let p = pid; p > 1; ) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, "utf8");
    } catch {
      return false;
    }
    p = Number(/^PPid:\s+(\d+)$/m.exec(status)![1]);
    if (p === ancestor) return true;
  }
  return false;
}
