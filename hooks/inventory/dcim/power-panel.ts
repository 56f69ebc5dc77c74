// Nautobot's PowerPanel.clean: a panel's location and rack group are in the panel's site.
import { readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimRackGroup, DcimSite } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const p: Row = { ...current, ...values };
  await checkLocation(db, "dcim.powerpanel", "Power panels", p);
  if (!p.rack_group_id) return;
  const group = await readRow<DcimRackGroup>(db, tables.dcim.rackgroup, p.rack_group_id);
  if (group && group.site !== p.site_id) {
    const [groupSite, site] = await Promise.all([group.site, p.site_id].map((s) => readRow<DcimSite>(db, tables.dcim.site, s)));
    throw new Refusal({ non_field_errors: `Rack group ${group.name} (${groupSite?.name}) is in a different site than ${site?.name}` });
  }
}
