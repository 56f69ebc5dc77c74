// Nautobot's secrets providers built in: an environment variable (`variable`) or a text file
// (`path`), each parameter a Jinja2 template rendered against the object the secret is read
// for (none here), as Nautobot's Secret.rendered_parameters; and a secrets group's secret of
// an access type and secret type (SecretsGroup.get_secret_value).
import { environmentValue, isFile, readText, type HookDb, render } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasSecret } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

export const PROVIDERS: Record<string, { name: string; parameter: string }> = {
  "environment-variable": { name: "EnvironmentVariableSecretsProvider", parameter: "variable" },
  "text-file": { name: "TextFileSecretsProvider", parameter: "path" },
};

export const parameters = (v: unknown): Row => (v ?? {}) as Row;

/** The provider's value for the secret (Nautobot's Secret.get_value), or the text of Nautobot's SecretError. */
export async function secretValue(s: ExtrasSecret): Promise<{ ok: true; value: string } | { ok: false; message: string }> {
  const provider = PROVIDERS[s.provider];
  const fail = (kind: string, providerName: string, message: string) =>
    ({ ok: false as const, message: `${kind}: Secret "${s.name}" (provider "${providerName}"): ${message}` });
  if (!provider) return fail("SecretProviderError", s.provider, `No registered provider "${s.provider}" is available`);
  const given: Row = {};
  for (const [key, template] of Object.entries(parameters(s.parameters))) {
    const rendered = render(String(template), { obj: null });
    if (!rendered.ok) return fail("SecretParametersError", provider.name, rendered.error);
    given[key] = rendered.value;
  }
  if (!(provider.parameter in given)) return fail("SecretParametersError", provider.name, `The "${provider.parameter}" parameter is mandatory!`);
  const target = String(given[provider.parameter]);
  if (s.provider === "environment-variable") {
    const found = environmentValue(target);
    return found === undefined ? fail("SecretValueNotFoundError", provider.name, `Undefined environment variable "${target}"!`) : { ok: true, value: found };
  }
  if (!(await isFile(target))) return fail("SecretValueNotFoundError", provider.name, `File "${target}" not found!`);
  try {
    return { ok: true, value: await readText(target) };
  } catch (e) {
    return fail("SecretError", provider.name, (e as Error).message);
  }
}

/** The secret of a group for an access type and a secret type (`HTTP`, `token`), or null when the group has none. */
export async function groupSecret(db: HookDb, groupId: string, accessType: string, secretType: string): Promise<ExtrasSecret | null> {
  const a = tables.extras.secretsgroupassociation.columns;
  const s = tables.extras.secret;
  const row = await db(`${s.table} as s`)
    .join(`${tables.extras.secretsgroupassociation.table} as a`, `a.${a.secret}`, "s.id")
    .where(`a.${a.group}`, groupId).where(`a.${a.access_type}`, accessType).where(`a.${a.secret_type}`, secretType)
    .first(Object.fromEntries(Object.entries(s.columns).map(([f, c]) => [f, `s.${c}`])));
  return (row as ExtrasSecret | undefined) ?? null;
}
