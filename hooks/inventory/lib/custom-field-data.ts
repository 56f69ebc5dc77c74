// Where custom-field values live, for the hooks of the custom-field models: the
// `custom_field_data` column of each model a field applies to, and the content types a field names.
import type { HookDb } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

export const DATA = "custom_field_data";

export { tableOf } from "./tables.js";

/** The content-type labels custom field `id` applies to. */
export async function labelsOf(db: HookDb, id: string | number): Promise<string[]> {
  const rows = await db(`${tables.extras.customfield.links.content_types.table} as j`).join(`${tables.extras.contenttype.table} as r`, "r.id", "j.contenttype_id")
    .where("j.source_id", id).select("r.app_label", "r.model");
  return rows.map((r: { app_label: string; model: string }) => `${r.app_label}.${r.model}`);
}
