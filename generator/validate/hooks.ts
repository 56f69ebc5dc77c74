// Checks a model's hook module: it exists where the spec's name says, and exports nothing
// the engine would not call (a misspelt `beforSave` would otherwise be silently ignored).
import { HOOK_NAMES } from "../../runtime/descriptor.js";
import type { ModelSpec } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";
import { HOOK_HELPERS, hookKey } from "../ir/names.js";

export function checkHooks(m: ModelSpec, hooks: LoadedApi["hooks"], err: (message: string, field?: string) => void, app?: string): void {
  const computed = Object.entries(m.fields ?? {}).filter(([, f]) => f.kind === "computed").map(([name]) => name);
  const actions = Object.keys(m.actions ?? {});
  const methods = Object.keys(m.filters?.methods ?? {});
  for (const [name, a] of Object.entries(m.actions ?? {})) {
    if (typeof a?.description !== "string" || typeof a.response !== "object" || a.response === null) err(`action "${name}" needs a description and a response schema`);
    if (a?.creates !== undefined && (typeof a.creates?.request !== "object" || a.creates.request === null || a.onApp)) {
      err(`action "${name}": creates needs a request schema, and an action of one object`);
    }
    if (a?.method !== undefined && a.method !== "GET" && a.method !== "POST") err(`action "${name}": method must be "GET" or "POST"`);
    if (a?.method === "POST" && (typeof a.request !== "object" || a.request === null)) err(`action "${name}": a POST action needs a request schema`);
    if (a?.method === "POST" && a.creates) err(`action "${name}": an action that creates objects takes its POST already; it has no method`);
    if (a?.request !== undefined && a.method !== "POST") err(`action "${name}": request documents a POST body: give method "POST"`);
    if (a?.permission !== undefined && !/^[a-z_]+$/.test(String(a.permission))) err(`action "${name}": permission must be an action name (lower case, like "run")`);
    if (a?.status !== undefined && !(Number.isInteger(a.status) && a.status >= 200 && a.status < 300 && a.status !== 204)) err(`action "${name}": status must be a 2xx status with a body`);
    const places = [a?.path !== undefined, !!a?.onApp, a?.servesList !== undefined].filter(Boolean).length;
    if (places > 1) err(`action "${name}": path, onApp and servesList each say where the action is served: give one`);
    if (a?.path !== undefined) {
      const segments = typeof a.path === "string" ? a.path.split("/") : [];
      if (segments.length < 3 || segments.some((s) => !/^(\{[a-z_][a-z0-9_]*\}|[A-Za-z0-9_-]+)$/.test(s))) {
        err(`action "${name}": path must be three or more segments, each a literal or a {placeholder}, like "{source}/{module}/{class}"`);
      }
      if (a.creates) err(`action "${name}": an action at a path cannot create objects`);
    }
    if (a?.servesList !== undefined && (a.method === "POST" || a.creates || a.paginated)) err(`action "${name}": an action serving the list answers a GET, unpaginated`);
  }
  const allocating = Object.entries(m.actions ?? {}).filter(([, a]) => a?.creates).map(([name]) => name);
  if (m.hooks === undefined) {
    for (const name of computed) err(`a computed field needs the model's hook module to give readValues.${name}`, name);
    for (const name of actions) err(`action "${name}" needs the model's hook module to give actions.${name}`);
    for (const name of methods) err(`method filter "${name}" needs the model's hook module to give filters.${name}`);
    for (const name of allocating) err(`action "${name}" creates objects: the model's hook module must give allocate.${name}`);
    return;
  }
  const found = typeof m.hooks === "string" ? hooks.get(hookKey(m.hooks, app)) : undefined;
  if (!found) {
    err(`hooks must name a module, like "ipam/prefix"`);
    return;
  }
  if (m.hooks!.split("/")[0] === HOOK_HELPERS) {
    err(`hooks "${m.hooks}": ${HOOK_HELPERS}/ holds the helpers hook modules share, not a model's hooks`);
    return;
  }
  if (!found.exports) {
    err(`hooks "${m.hooks}": no module ${found.file} (lower-case names, dashes and "/" only)`);
    return;
  }
  const known = new Set<string>(HOOK_NAMES);
  for (const name of found.exports) {
    if (!known.has(name)) err(`hooks "${m.hooks}": ${found.file} exports "${name}", which is no hook (known: ${HOOK_NAMES.join(", ")})`);
  }
  // The store calls one or the other: with both, beforeSaveSet would never run.
  if (found.exports.includes("beforeSave") && found.exports.includes("beforeSaveSet")) {
    err(`hooks "${m.hooks}": ${found.file} exports both beforeSave and beforeSaveSet; give one (beforeSaveSet also checks a single save, as a set of one)`);
  }
  for (const name of computed) {
    if (!found.readValues.includes(name)) err(`computed field: ${found.file} gives no readValues.${name}`, name);
  }
  for (const name of found.readValues) {
    if (!computed.includes(name)) err(`hooks "${m.hooks}": readValues.${name} names no computed field of ${m.name}`);
  }
  for (const name of methods) if (!found.filters.includes(name)) err(`method filter "${name}": ${found.file} gives no filters.${name}`);
  for (const name of found.filters) {
    if (!methods.includes(name)) err(`hooks "${m.hooks}": filters.${name} names no method filter of ${m.name}`);
  }
  for (const name of actions) if (!found.actions.includes(name)) err(`action "${name}": ${found.file} gives no actions.${name}`);
  for (const name of found.actions) {
    if (!actions.includes(name)) err(`hooks "${m.hooks}": actions.${name} names no action of ${m.name}`);
  }
  for (const name of allocating) if (!found.allocate.includes(name)) err(`action "${name}" creates objects: ${found.file} gives no allocate.${name}`);
  for (const name of found.allocate) {
    if (!allocating.includes(name)) err(`hooks "${m.hooks}": allocate.${name} names no action of ${m.name} that creates objects`);
  }
}
