// Nautobot's PowerPanel.clean: a panel's location and rack group are in the panel's site.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, any>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const p: Row = { ...current, ...values };
  await checkLocation(db, "dcim.powerpanel", "Power panels", p);
  if (!p.rack_group_id) return;
  const group: Row = await db(tables.dcim.rackgroup.table).where({ id: p.rack_group_id }).first();
  if (group && group.site_id !== p.site_id) {
    const [groupSite, site]: Row[] = await Promise.all([group.site_id, p.site_id].map((s) => db(tables.dcim.site.table).where({ id: s }).first()));
    throw new Refusal({ non_field_errors: `Rack group ${group.name} (${groupSite?.name}) is in a different site than ${site?.name}` });
  }
}
