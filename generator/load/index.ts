// Load pass: finds `spec/<api>/api.ts` and every model file beside it, imports them and
// gives back their default exports with the file each came from. It judges nothing:
// the validate pass does that.
import { readdirSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { ApiSpec, ModelSpec } from "../dsl/index.js";
import { byCodePoint, hookModulePath } from "../ir/names.js";

export interface Loaded<T> {
  /** Path relative to the project root, `/`-separated, for messages and file headers. */
  file: string;
  value: T;
}

export interface LoadedApi {
  api: Loaded<ApiSpec>;
  models: Array<Loaded<ModelSpec>>;
  /** Hook modules the models name, by name: the file, its export names (null when there is no module), the fields its `readValues` computes, its method filters and its actions. */
  hooks: Map<string, { file: string; exports: string[] | null; readValues: string[]; filters: string[]; actions: string[]; allocate: string[] }>;
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort(byCodePoint)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (entry.endsWith(".ts")) out.push(path);
  }
  return out;
}

export class LoadError extends Error {}

/** Every API under `specRoot` (one folder each), sorted by name. */
export async function loadSpecs(root: string, specDir = "spec"): Promise<LoadedApi[]> {
  const specRoot = join(root, specDir);
  const apis: LoadedApi[] = [];
  for (const name of readdirSync(specRoot).sort(byCodePoint)) {
    const dir = join(specRoot, name);
    if (!statSync(dir).isDirectory()) continue;
    const apiFile = join(dir, "api.ts");
    if (!existsSync(apiFile)) throw new LoadError(`${rel(root, dir)}: no api.ts`);
    const loadedApi = await importDefault(root, apiFile);
    const models: Array<Loaded<ModelSpec>> = [];
    for (const file of listTs(dir)) {
      if (file === apiFile) continue;
      models.push((await importDefault(root, file)) as Loaded<ModelSpec>);
    }
    apis.push({ api: loadedApi as Loaded<ApiSpec>, models, hooks: await loadHooks(root, name, models) });
  }
  return apis;
}

/** The export names of every hook module a model names (`hooks: "ipam/prefix"`). */
async function loadHooks(root: string, api: string, models: Array<Loaded<ModelSpec>>): Promise<LoadedApi["hooks"]> {
  const out: LoadedApi["hooks"] = new Map();
  for (const { value } of models) {
    const name = value?.hooks;
    if (typeof name !== "string" || out.has(name)) continue;
    const path = join(root, `${hookModulePath(api, name)}.ts`);
    const file = rel(root, path);
    if (!/^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/.test(name) || !existsSync(path)) {
      out.set(name, { file, exports: null, readValues: [], filters: [], actions: [], allocate: [] });
      continue;
    }
    try {
      const mod = await import(pathToFileURL(path).href);
      const keysOf = (v: unknown) => (typeof v === "object" && v ? Object.keys(v) : []);
      out.set(name, { file, exports: Object.keys(mod).sort(byCodePoint), readValues: keysOf(mod.readValues), filters: keysOf(mod.filters), actions: keysOf(mod.actions), allocate: keysOf(mod.allocate) });
    } catch (err) {
      throw new LoadError(`${file}: cannot be loaded: ${(err as Error).message}`);
    }
  }
  return out;
}

function rel(root: string, path: string): string {
  return relative(root, path).split("\\").join("/");
}

async function importDefault(root: string, file: string): Promise<Loaded<unknown>> {
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw new LoadError(`${rel(root, file)}: cannot be loaded: ${(err as Error).message}`);
  }
  if (mod.default === undefined) throw new LoadError(`${rel(root, file)}: has no default export`);
  return { file: rel(root, file), value: mod.default };
}
