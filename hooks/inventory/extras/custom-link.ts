// The `render` action of custom links: one link rendered for one object, as Nautobot's
// custom_links template tag renders it on the object's page (text first: a link whose text is
// empty is not shown; then the URL; a template error shows the link disabled with the error).
// Nautobot has no API for this; the object is the one the API shows (`obj.site.name`), read in
// one statement, and only an object the requester may view is rendered.
import { readRow, Refusal, type ActionEvent, isUuid, render as renderTemplate } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasCustomLink } from "../../../generated/inventory/rows.js";

async function render(event: ActionEvent): Promise<Record<string, unknown>> {
  const link = (await readRow<ExtrasCustomLink>(event.db, tables.extras.customlink, event.id))!;
  const objectId = event.params.get("object_id")?.at(-1);
  if (!objectId) throw new Refusal({ object_id: { code: "required" } });
  if (!isUuid(objectId)) throw new Refusal({ object_id: { code: "invalid_uuid" } });
  const target = event.engine.index.model(link.content_type);
  const condition = event.permitted(target, "view", "t");
  const visible = await event.db(`${target.table} as t`).where("t.id", objectId.toLowerCase())
    .modify((q) => { if (condition) q.whereRaw(condition.sql, condition.bindings as never[]); })
    .first("t.id");
  const [obj] = visible ? await event.read([{ model: target.key, id: objectId.toLowerCase() }], "full") : [null];
  if (!obj) throw new Refusal({ object_id: { code: "related_not_found_by_id", value: objectId } });
  const shown = { name: link.name, group_name: link.group_name, button_class: link.button_class, new_window: link.new_window };
  const text = renderTemplate(link.text, { obj });
  if (!text.ok) return { ...shown, text: "", url: "", visible: true, error: text.error };
  if (!text.value) return { ...shown, text: "", url: "", visible: false, error: null };
  const url = renderTemplate(link.target_url, { obj });
  if (!url.ok) return { ...shown, text: text.value, url: "", visible: true, error: url.error };
  return { ...shown, text: text.value, url: url.value, visible: true, error: null };
}

export const actions = { render };
