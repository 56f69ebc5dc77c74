// Which of an API's apps (Nautobot's plugins, `apps/<name>/`) the configuration enables:
// PLUGINS names each by its folder name or its label. Takes descriptors and the names; gives
// the enabled apps in PLUGINS' order, or refuses a name no API's app has, as Nautobot refuses
// to start with a plugin it cannot import. A disabled app's tables and rows stay.
import type { ApiDescriptor, PluginDescriptor } from "./descriptor.js";

export function enabledPlugins(api: ApiDescriptor, names: readonly string[]): PluginDescriptor[] {
  const apps = api.plugins ?? [];
  return names.flatMap((n) => apps.filter((p) => p.name === n || p.label === n));
}

/** Fails (before anything is served) when PLUGINS names an app that none of the APIs has. */
export function checkPluginNames(apis: readonly ApiDescriptor[], names: readonly string[]): void {
  const known = apis.flatMap((a) => a.plugins ?? []);
  const unknown = names.filter((n) => !known.some((p) => p.name === n || p.label === n));
  if (unknown.length) {
    const have = known.map((p) => p.name).join(", ") || "none";
    throw new Error(`PLUGINS names ${unknown.map((n) => `"${n}"`).join(", ")}, which no app is (apps: ${have})`);
  }
}
