// Nautobot's ExportTemplate.clean: a file extension loses its leading dot, and no two templates
// of one content type and owner share a name (the owner may be null, which a unique index
// cannot compare).
import { columns, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasExportTemplate } from "../../../generated/inventory/rows.js";

const T = tables.extras.exporttemplate;

export async function beforeSave({ db, id, values, after }: SaveEvent<ExtrasExportTemplate>): Promise<void> {
  if (typeof values.file_extension === "string" && values.file_extension.startsWith(".")) values.file_extension = values.file_extension.slice(1);
  const c = columns(T);
  const taken = await db(T.table)
    .where(c.name, after.name).where(c.content_type, after.content_type)
    .whereRaw(`${c.owner_content_type} IS NOT DISTINCT FROM ?`, [after.owner_content_type ?? null])
    .whereRaw(`${c.owner_object_id} IS NOT DISTINCT FROM ?::uuid`, [after.owner_object_id ?? null])
    .modify((q) => { if (id !== null) q.whereNot("id", id); })
    .first("id");
  if (taken) throw new Refusal({ name: "An ExportTemplate with this name and content type already exists." });
}
