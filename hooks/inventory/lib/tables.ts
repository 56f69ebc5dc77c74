// The generated names looked up by model key (`dcim.interface`), for hooks that meet a model
// only as a key or a content-type label: a cable's ends, the models a custom field applies to.
import type { ModelNames } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

const byKey = new Map<string, ModelNames>(Object.entries(tables).flatMap(([app, models]) =>
  Object.entries(models as Record<string, ModelNames>).map(([model, names]): [string, ModelNames] => [`${app}.${model}`, names])));

/** The table and columns of the model `key` names. */
export function namesOf(key: string): ModelNames {
  const names = byKey.get(key);
  if (!names) throw new Error(`no model ${key}`);
  return names;
}
