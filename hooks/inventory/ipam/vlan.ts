// Nautobot's VLAN.clean(): the location rule, then the group's: a group is of the VLAN's own
// site (or, without one, of none), and a group at a location is at the VLAN's location or
// above it. And the VLANFilterSet methods.
import { Refusal, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation, locationWithin } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, any>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const vlan: Row = { ...current, ...values };
  await checkLocation(db, "ipam.vlan", "VLANs", vlan);
  if (!vlan.group_id) return;
  const group: Row = await db(tables.ipam.vlangroup.table).where({ id: vlan.group_id }).first();
  if ((group.site_id ?? null) !== (vlan.site_id ?? null)) {
    const site: Row | undefined = vlan.site_id ? await db(tables.dcim.site.table).where({ id: vlan.site_id }).first() : undefined;
    throw new Refusal({ group: `VLAN group must belong to the assigned site (${site?.name ?? "None"}).` });
  }
  if (group.location_id && vlan.location_id) {
    if (!(await locationWithin(db, vlan.location_id, group.location_id))) {
      const { name } = await db(tables.dcim.location.table).where({ id: vlan.location_id }).first();
      throw new Refusal({ group: `The assigned group belongs to a location that does not include location "${name}".` });
    }
  }
}

export const filters = {
  // VLANs of the device's site, and those of no site; an unknown device has none (Nautobot's get_for_device).
  available_on_device: ({ alias, values }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${tables.dcim.device.table} d WHERE d.id::text = ANY(SELECT lower(v) FROM unnest(${values}) AS v) ` +
    `AND (${alias}.site_id IS NULL OR ${alias}.site_id = d.site_id))`,
};
