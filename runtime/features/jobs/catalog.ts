// The jobs folder(s): every module at the top of each folder is imported (TypeScript or
// JavaScript, as the server itself runs), and every export that is a job is one job, known by
// its class path `local/<module>/<Export>` as Nautobot names local jobs. The folders hold the
// operator's own code, trusted as Nautobot trusts JOBS_ROOT: a module that fails to import is
// reported and its jobs count as not installed. Each module is imported once per process.
import { readdirSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isJob, type Job } from "./define.js";

/** Nautobot's source of jobs in its JOBS_ROOT. */
export const LOCAL_SOURCE = "local";

export interface CatalogEntry {
  classPath: string;
  module: string;
  /** The export's name: the job's class name. */
  className: string;
  /** The job's grouping: its own, else its module's `grouping` export, else the module's name. */
  grouping: string;
  job: Job;
}

export interface Catalog {
  jobs: Map<string, CatalogEntry>;
  /** Modules that failed to import, and names two folders both give: each a line for the operator. */
  problems: string[];
}

/** A module file: a name Nautobot could have for a module, and an extension the server runs. */
const MODULE_FILE = /^[A-Za-z][A-Za-z0-9_-]*\.(ts|mts|js|mjs)$/;

const loaded = new Map<string, Promise<Catalog>>();

/** The jobs of these folders (missing folders have none), imported once per process and set of folders. */
export function loadCatalog(roots: string[]): Promise<Catalog> {
  const key = roots.map((r) => resolve(r)).join("\0");
  let catalog = loaded.get(key);
  if (!catalog) {
    catalog = importAll(roots.map((r) => resolve(r)));
    loaded.set(key, catalog);
  }
  return catalog;
}

/** How the jobs of a folder are named: their record's module name and their class path, from the module's and the export's. */
export interface Naming {
  module(module: string): string;
  classPath(module: string, className: string): string;
}

const LOCAL_NAMING: Naming = { module: (m) => m, classPath: (m, c) => `${LOCAL_SOURCE}/${m}/${c}` };

function modulesOf(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((n) => MODULE_FILE.test(n) && !n.endsWith(".d.ts") && statSync(join(root, n)).isFile()).sort().map((n) => join(root, n));
}

/** The jobs of these folders, named by `naming`, imported now (each module once per process, as any import). */
export async function importAll(roots: string[], naming: Naming = LOCAL_NAMING): Promise<Catalog> {
  const jobs = new Map<string, CatalogEntry>();
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const root of roots) {
    for (const file of modulesOf(root)) {
      const module = basename(file, extname(file));
      const first = seen.get(module);
      if (first) {
        problems.push(`jobs: ${file} is ignored: module ${module} is ${first} already`);
        continue;
      }
      seen.set(module, file);
      let exports: Record<string, unknown>;
      try {
        exports = await import(pathToFileURL(file).href);
      } catch (err) {
        problems.push(`jobs: unable to load module ${module} from ${root}: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      const moduleGrouping = typeof exports.grouping === "string" ? exports.grouping : module;
      for (const [className, value] of Object.entries(exports)) {
        if (!isJob(value)) continue;
        const classPath = naming.classPath(module, className);
        jobs.set(classPath, { classPath, module: naming.module(module), className, grouping: value.grouping ?? moduleGrouping, job: value });
      }
    }
  }
  return { jobs, problems };
}
