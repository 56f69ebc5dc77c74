// Nautobot's Cluster.clean: its location is in its site and of a type that holds clusters; a
// cluster at a site (or location) keeps its host devices there. Its virtual machines show the
// cluster's site and location, so they follow it.
import { columns, readRow, Refusal, type HookDb, type SaveEvent, type SavedEvent } from "../../../runtime/hooks.js";
import { checkLocations } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimLocation, DcimSite, VirtualizationCluster } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, id, after: c }: SaveEvent<VirtualizationCluster>): Promise<void> {
  // Without a site, only the location's type is checked.
  await checkLocations(db, "virtualization.cluster", "Clusters", [c.site ? c : { ...c, site: undefined }]);
  if (id === null) return;
  if (c.site) {
    const n = await hostsElsewhere(db, id, "site", c.site);
    if (n) throw new Refusal({ site: `${n} devices are assigned as hosts for this cluster but are not in site ${(await readRow<DcimSite>(db, tables.dcim.site, c.site))?.name ?? ""}` });
  }
  if (c.location) {
    const n = await hostsElsewhere(db, id, "location", c.location);
    if (n) {
      const location = await readRow<DcimLocation>(db, tables.dcim.location, c.location);
      throw new Refusal({ location: `${n} devices are assigned as hosts for this cluster but belong to a location other than "${location?.name ?? ""}".` });
    }
  }
}

/** How many of the cluster's host devices have a `field` (site or location) set to something else. */
async function hostsElsewhere(db: HookDb, id: string | number, field: "site" | "location", value: unknown): Promise<number> {
  const d = columns(tables.dcim.device);
  const [{ count }] = await db(tables.dcim.device.table).where({ [d.cluster]: id }).whereNotNull(d[field]).whereNot({ [d[field]]: value })
    .count<Array<{ count: string }>>("* as count");
  return Number(count);
}

export async function afterSave({ db, id, after, created }: SavedEvent<VirtualizationCluster>): Promise<void> {
  if (created) return;
  const m = columns(tables.virtualization.virtualmachine);
  await db(tables.virtualization.virtualmachine.table).where({ [m.cluster]: id }).update({ [m.site]: after.site, [m.location]: after.location });
}
