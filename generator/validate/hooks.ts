// Checks a model's hook module: it exists where the spec's name says, and exports nothing
// the engine would not call (a misspelt `beforSave` would otherwise be silently ignored).
import { HOOK_NAMES } from "../../runtime/descriptor.js";
import type { ModelSpec } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";

export function checkHooks(m: ModelSpec, hooks: LoadedApi["hooks"], err: (message: string) => void): void {
  if (m.hooks === undefined) return;
  const found = typeof m.hooks === "string" ? hooks.get(m.hooks) : undefined;
  if (!found) {
    err(`hooks must name a module, like "ipam/prefix"`);
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
}
