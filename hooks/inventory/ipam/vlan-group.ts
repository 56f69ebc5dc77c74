// A VLAN group's location: in its site, of a type that holds VLAN groups (Nautobot's VLANGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../lib/located.js";

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current = before ?? {};
  await checkLocation(db, "ipam.vlangroup", "VLAN groups", { ...current, ...values });
}
