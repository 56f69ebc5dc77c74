// Checks the apps an API is extended by (`apps/<name>/app.ts`): each declared with app({...}),
// named by its folder, with a Django label of its own. Gives the sound ones by folder name;
// their models are checked with the API's own, each against its app's label.
import type { AppSpec } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";

const TEXTS: Array<keyof AppSpec> = ["verboseName", "version", "author", "description"];

export function checkApps(loaded: LoadedApi, err: (file: string, message: string) => void): Map<string, { spec: AppSpec; file: string }> {
  const out = new Map<string, { spec: AppSpec; file: string }>();
  const labels = new Map<string, string>();
  const api = loaded.api.value;
  for (const { file, value, app } of loaded.apps) {
    if (!value || value.kind !== "app") {
      err(file, "default export must be app({...})");
      continue;
    }
    let sound = true;
    const fail = (message: string) => { err(file, message); sound = false; };
    if (value.baseUrl !== app) fail(`baseUrl "${value.baseUrl}" must be the app's folder name, "${app}": PLUGINS enables an app by that one name`);
    if (!/^[a-z][a-z0-9-]*$/.test(String(value.baseUrl))) fail(`baseUrl "${value.baseUrl}" must be lower-case letters, digits and dashes`);
    if (!/^[a-z][a-z0-9_]*$/.test(String(value.label))) fail(`label "${value.label}" must be a Django app label: lower-case letters, digits and underscores`);
    else if (api?.apps?.includes(value.label)) fail(`label "${value.label}" is an app of ${loaded.api.file}; an app needs a label of its own`);
    else if (labels.has(value.label)) fail(`label "${value.label}" is also the label of ${labels.get(value.label)}`);
    for (const key of TEXTS) if (typeof value[key] !== "string" || !value[key]) fail(`${key} must be a non-empty string`);
    if (value.authorEmail !== undefined && typeof value.authorEmail !== "string") fail("authorEmail must be a string");
    if (value.replaces !== undefined && (!Array.isArray(value.replaces) || !value.replaces.every((r) => typeof r === "string" && /^\d{4}_[a-z0-9_]+\.sql$/.test(r)))) {
      fail("replaces must list migration file names of the API's own stream, as 0040_create_x.sql");
    }
    if (api?.profile !== "drf") fail(`api "${value.api}" is served by the ${api?.profile} profile; apps extend DRF-style APIs`);
    if (!sound) continue;
    labels.set(value.label, file);
    out.set(app!, { spec: value, file });
  }
  return out;
}
