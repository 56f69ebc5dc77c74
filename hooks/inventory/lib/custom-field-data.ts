// Where custom-field values live, for the hooks of the custom-field models: the
// `custom_fields` column of each model a field applies to, and the content types a field names.
import { fields, type HookDb } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import { namesOf } from "./tables.js";

/** The table of the model a content-type label names, and the column of its custom-field values. */
export function dataOf(label: string): { table: string; column: string } {
  const names = namesOf(label);
  return { table: names.table, column: names.columns.custom_fields };
}

/** The content-type labels each of the custom fields `ids` applies to, by field id as stored (none: absent), in one statement. */
export async function labelsOfEach(db: HookDb, ids: ReadonlyArray<string | number>): Promise<Map<string, string[]>> {
  const link = tables.extras.customfield.links.content_types;
  const registry = tables.extras.contenttype;
  const rows: Array<{ field: string; app_label: string; model: string }> = await db(`${link.table} as j`)
    .join(`${registry.table} as r`, "r.id", `j.${link.target}`).whereIn(`j.${link.source}`, ids)
    .select({ field: `j.${link.source}`, ...fields(registry, ["app_label", "model"], "r") });
  const labels = new Map<string, string[]>();
  for (const r of rows) labels.set(String(r.field), [...(labels.get(String(r.field)) ?? []), `${r.app_label}.${r.model}`]);
  return labels;
}

/** The content-type labels custom field `id` applies to. */
export async function labelsOf(db: HookDb, id: string | number): Promise<string[]> {
  return [...(await labelsOfEach(db, [id])).values()].flat();
}
