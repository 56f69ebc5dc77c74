// Load pass: finds `spec/<api>/api.ts` and every model file beside it, and the apps under
// `apps/<name>/` (an `app.ts`, models under `spec/`), imports them and gives back their
// default exports with the file each came from. It judges nothing: the validate pass does that.
import { readdirSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { ApiSpec, AppSpec, ModelSpec } from "../dsl/index.js";
import { APPS_DIR, APP_SPEC_DIR, byCodePoint, hookKey, hookModulePath } from "../ir/names.js";

export interface Loaded<T> {
  /** Path relative to the project root, `/`-separated, for messages and file headers. */
  file: string;
  value: T;
  /** The app (its folder under `apps/`) the file belongs to; absent for the API's own spec. */
  app?: string;
}

export interface LoadedApi {
  api: Loaded<ApiSpec>;
  models: Array<Loaded<ModelSpec>>;
  /** The apps that extend the API, by folder name order; their models are among `models`. */
  apps: Array<Loaded<AppSpec>>;
  /** Hook modules the models name, by `hookKey(name, app)`: the file, its export names (null when there is no module), the fields its `readValues` computes, its method filters and its actions. */
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

/** Every API under `specRoot` (one folder each), sorted by name, each with the apps that name it. */
export async function loadSpecs(root: string, specDir = "spec", appsDir = APPS_DIR): Promise<LoadedApi[]> {
  const specRoot = join(root, specDir);
  const apis: LoadedApi[] = [];
  const apps = await loadApps(root, appsDir);
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
    const own = apps.filter((a) => (a.app.value as Partial<AppSpec> | undefined)?.api === name);
    for (const a of own) models.push(...a.models);
    apis.push({ api: loadedApi as Loaded<ApiSpec>, models, apps: own.map((a) => a.app), hooks: await loadHooks(root, name, models) });
  }
  const orphans = apps.filter((a) => !apis.some((api) => api.apps.includes(a.app)));
  if (orphans.length) throw new LoadError(`${orphans[0].app.file}: api must name one of the APIs under ${specDir}/ (${apis.map((a) => a.api.value?.name).join(", ")})`);
  return apis;
}

/** Each folder of `apps/`: its `app.ts` and its models, every file marked with the folder's name. */
async function loadApps(root: string, appsDir: string): Promise<Array<{ app: Loaded<AppSpec>; models: Array<Loaded<ModelSpec>> }>> {
  const dir = join(root, appsDir);
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort(byCodePoint)) {
    const appDir = join(dir, name);
    if (!statSync(appDir).isDirectory()) continue;
    const appFile = join(appDir, "app.ts");
    if (!existsSync(appFile)) throw new LoadError(`${rel(root, appDir)}: no app.ts`);
    const app = { ...(await importDefault(root, appFile)), app: name } as Loaded<AppSpec>;
    const specDir = join(appDir, APP_SPEC_DIR);
    const models = existsSync(specDir)
      ? await Promise.all(listTs(specDir).map(async (file) => ({ ...(await importDefault(root, file)), app: name }) as Loaded<ModelSpec>))
      : [];
    out.push({ app, models });
  }
  return out;
}

/** The export names of every hook module a model names (`hooks: "ipam/prefix"`). */
async function loadHooks(root: string, api: string, models: Array<Loaded<ModelSpec>>): Promise<LoadedApi["hooks"]> {
  const out: LoadedApi["hooks"] = new Map();
  for (const { value, app } of models) {
    const name = value?.hooks;
    if (typeof name !== "string" || out.has(hookKey(name, app))) continue;
    const path = join(root, `${hookModulePath(api, name, app)}.ts`);
    const file = rel(root, path);
    if (!/^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/.test(name) || !existsSync(path)) {
      out.set(hookKey(name, app), { file, exports: null, readValues: [], filters: [], actions: [], allocate: [] });
      continue;
    }
    try {
      const mod = await import(pathToFileURL(path).href);
      const keysOf = (v: unknown) => (typeof v === "object" && v ? Object.keys(v) : []);
      out.set(hookKey(name, app), { file, exports: Object.keys(mod).sort(byCodePoint), readValues: keysOf(mod.readValues), filters: keysOf(mod.filters), actions: keysOf(mod.actions), allocate: keysOf(mod.allocate) });
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
