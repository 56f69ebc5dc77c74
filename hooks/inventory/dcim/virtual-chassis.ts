// Nautobot's VirtualChassis: an existing chassis's master must be one of its members; a new
// chassis makes its master the first member (position 1), as Nautobot's post-save signal does.
import { columns, readRow, Refusal, type SaveEvent, type SavedEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimDevice, DcimVirtualChassis } from "../../../generated/inventory/rows.js";

const DEVICES = tables.dcim.device;

export async function beforeSave({ db, id, values }: SaveEvent<DcimVirtualChassis>): Promise<void> {
  if (id === null || !values.master) return;
  const master = await readRow<DcimDevice>(db, DEVICES, values.master);
  if (master && master.virtual_chassis !== id) {
    throw new Refusal({ master: `The selected master (${master.name ?? master.id}) is not assigned to this virtual chassis.` });
  }
}

export async function afterSave({ db, id, values, created }: SavedEvent<DcimVirtualChassis>): Promise<void> {
  const d = columns(DEVICES);
  if (created && values.master) await db(DEVICES.table).where({ id: values.master }).update({ [d.virtual_chassis]: id, [d.vc_position]: 1 });
}
