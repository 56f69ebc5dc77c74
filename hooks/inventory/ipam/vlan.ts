// Nautobot's VLAN.clean(): the location rule, then the group's: a group is of the VLAN's own
// site (or, without one, of none), and a group at a location is at the VLAN's location or
// above it. And the VLANFilterSet methods.
import { columns, readRow, Refusal, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocations, locationWithin } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimLocation, DcimSite, IpamVLAN, IpamVLANGroup } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, after: vlan }: SaveEvent<IpamVLAN>): Promise<void> {
  await checkLocations(db, "ipam.vlan", "VLANs", [vlan]);
  if (!vlan.group) return;
  const group = (await readRow<IpamVLANGroup>(db, tables.ipam.vlangroup, vlan.group))!;
  if ((group.site ?? null) !== (vlan.site ?? null)) {
    const site = await readRow<DcimSite>(db, tables.dcim.site, vlan.site);
    throw new Refusal({ group: `VLAN group must belong to the assigned site (${site?.name ?? "None"}).` });
  }
  if (group.location && vlan.location) {
    if (!(await locationWithin(db, vlan.location, group.location))) {
      const { name } = (await readRow<DcimLocation>(db, tables.dcim.location, vlan.location))!;
      throw new Refusal({ group: `The assigned group belongs to a location that does not include location "${name}".` });
    }
  }
}

export const filters = {
  // VLANs of the device's site, and those of no site; an unknown device has none (Nautobot's get_for_device).
  available_on_device: ({ alias, values }: MethodQuery) => {
    const [v, d] = [columns(tables.ipam.vlan, alias), columns(tables.dcim.device, "d")];
    return `EXISTS (SELECT 1 FROM ${tables.dcim.device.table} d WHERE d.id::text = ANY(SELECT lower(v) FROM unnest(${values}) AS v) ` +
      `AND (${v.site} IS NULL OR ${v.site} = ${d.site}))`;
  },
};
