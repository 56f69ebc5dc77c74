// Nautobot's Secret.clean and its `check` action, for the two providers Nautobot has built in:
// an environment variable (`variable`) or a text file (`path`, absolute, without `..`). The
// check reads the value on this instance and reports only whether it could. Each parameter is
// a Jinja2 template rendered against the object the secret is read for (none, for the check),
// as Nautobot's Secret.rendered_parameters.
import { environmentValue, isFile, readText } from "../../../runtime/host.js";
import { readRow, Refusal, type ActionEvent, type SaveEvent } from "../../../runtime/hooks.js";
import { render } from "../../../runtime/templates/jinja.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasSecret } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

const PROVIDERS: Record<string, { name: string; parameter: string }> = {
  "environment-variable": { name: "EnvironmentVariableSecretsProvider", parameter: "variable" },
  "text-file": { name: "TextFileSecretsProvider", parameter: "path" },
};

const parameters = (v: unknown): Row => (v ?? {}) as Row;

export function beforeSave({ values, before, after }: SaveEvent<ExtrasSecret>): void {
  const s: Row = { ...after, parameters: parameters(values.parameters ?? before?.parameters) };
  if (!PROVIDERS[s.provider]) throw new Refusal({ provider: `No registered provider "${s.provider}" is available` });
  if (s.provider === "text-file") {
    const path = String(s.parameters.path ?? "");
    if (!path.startsWith("/")) throw new Refusal({ non_field_errors: "Path must be an absolute path, not a relative one" });
    if (path.includes("..")) throw new Refusal({ non_field_errors: "Illegal character sequence in path" });
  }
}

/** The provider's value for the secret, or the text of Nautobot's SecretError. */
async function value(s: ExtrasSecret): Promise<{ ok: true } | { ok: false; message: string }> {
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
    return environmentValue(target) === undefined ? fail("SecretValueNotFoundError", provider.name, `Undefined environment variable "${target}"!`) : { ok: true };
  }
  if (!(await isFile(target))) return fail("SecretValueNotFoundError", provider.name, `File "${target}" not found!`);
  try {
    await readText(target);
    return { ok: true };
  } catch (e) {
    return fail("SecretError", provider.name, (e as Error).message);
  }
}

async function check({ db, id }: ActionEvent): Promise<{ result: boolean; message: string }> {
  const found = await value((await readRow<ExtrasSecret>(db, tables.extras.secret, id))!);
  return found.ok ? { result: true, message: "Passed" } : { result: false, message: found.message };
}

export const actions = { check };
