// A rack group's location: in its site, of a type that holds rack groups (Nautobot's RackGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../lib/located.js";

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current = before ?? {};
  await checkLocation(db, "dcim.rackgroup", "Rack groups", { ...current, ...values });
}
