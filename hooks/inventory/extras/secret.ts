// Nautobot's Secret.clean and its `check` action, for the two providers Nautobot has built in
// (lib/secrets.ts): an environment variable (`variable`) or a text file (`path`, absolute,
// without `..`). The check reads the value on this instance and reports only whether it could.
import { readRow, Refusal, type ActionEvent, type SaveEvent } from "../../../runtime/hooks.js";
import { parameters, PROVIDERS, secretValue } from "../lib/secrets.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasSecret } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

export function beforeSave({ values, before, after }: SaveEvent<ExtrasSecret>): void {
  const s: Row = { ...after, parameters: parameters(values.parameters ?? before?.parameters) };
  if (!PROVIDERS[s.provider]) throw new Refusal({ provider: `No registered provider "${s.provider}" is available` });
  if (s.provider === "text-file") {
    const path = String(s.parameters.path ?? "");
    if (!path.startsWith("/")) throw new Refusal({ non_field_errors: "Path must be an absolute path, not a relative one" });
    if (path.includes("..")) throw new Refusal({ non_field_errors: "Illegal character sequence in path" });
  }
}

async function check({ db, id }: ActionEvent): Promise<{ result: boolean; message: string }> {
  const found = await secretValue((await readRow<ExtrasSecret>(db, tables.extras.secret, id))!);
  return found.ok ? { result: true, message: "Passed" } : { result: false, message: found.message };
}

export const actions = { check };
