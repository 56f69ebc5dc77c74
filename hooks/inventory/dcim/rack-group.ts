// A rack group's location: in its site, of a type that holds rack groups (Nautobot's RackGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "./located.js";

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  const current = id === null ? {} : (await db("dcim_rackgroup").where({ id }).first()) ?? {};
  await checkLocation(db, "dcim.rackgroup", "Rack groups", { ...current, ...values });
}
