// A VLAN group's location: in its site, of a type that holds VLAN groups (Nautobot's VLANGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../dcim/located.js";

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  const current = id === null ? {} : (await db("ipam_vlangroup").where({ id }).first()) ?? {};
  await checkLocation(db, "ipam.vlangroup", "VLAN groups", { ...current, ...values });
}
