// The generated names looked up by model key (`dcim.interface`), for hooks that meet a model
// only as a key or a content-type label: a cable's ends, the models a custom field applies to.
import { tables } from "../../../generated/inventory/tables.js";

type Names = { table: string; columns: Record<string, string> };

const byKey = new Map<string, Names>(Object.entries(tables).flatMap(([app, models]) =>
  Object.entries(models as Record<string, Names>).map(([model, names]): [string, Names] => [`${app}.${model}`, names])));

/** The table of the model `key` names. */
export function tableOf(key: string): string {
  const names = byKey.get(key);
  if (!names) throw new Error(`no model ${key}`);
  return names.table;
}
