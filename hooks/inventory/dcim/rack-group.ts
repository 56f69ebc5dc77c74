// A rack group's location: in its site, of a type that holds rack groups (Nautobot's RackGroup.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import type { DcimRackGroup } from "../../../generated/inventory/rows.js";
import { checkLocations } from "../lib/located.js";

export async function beforeSave({ db, after }: SaveEvent<DcimRackGroup>): Promise<void> {
  await checkLocations(db, "dcim.rackgroup", "Rack groups", [after]);
}
