// Nautobot's PowerPanel.clean: a panel's location and rack group are in the panel's site.
import { readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocations } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimPowerPanel, DcimRackGroup, DcimSite } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, after: p }: SaveEvent<DcimPowerPanel>): Promise<void> {
  await checkLocations(db, "dcim.powerpanel", "Power panels", [p]);
  if (!p.rack_group) return;
  const group = await readRow<DcimRackGroup>(db, tables.dcim.rackgroup, p.rack_group);
  if (group && group.site !== p.site) {
    const [groupSite, site] = await Promise.all([group.site, p.site].map((s) => readRow<DcimSite>(db, tables.dcim.site, s)));
    throw new Refusal({ non_field_errors: `Rack group ${group.name} (${groupSite?.name}) is in a different site than ${site?.name}` });
  }
}
