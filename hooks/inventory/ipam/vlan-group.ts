// A VLAN group's location: in its site, of a type that holds VLAN groups (Nautobot's VLANGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import type { IpamVLANGroup } from "../../../generated/inventory/rows.js";
import { checkLocations } from "../lib/located.js";

export async function beforeSave({ db, after }: SaveEvent<IpamVLANGroup>): Promise<void> {
  await checkLocations(db, "ipam.vlangroup", "VLAN groups", [after]);
}
