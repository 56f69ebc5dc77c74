// Nautobot's VirtualChassis: an existing chassis's master must be one of its members; a new
// chassis makes its master the first member (position 1), as Nautobot's post-save signal does.
import { columns, readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimDevice } from "../../../generated/inventory/rows.js";

const DEVICES = tables.dcim.device;

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  if (id === null || !values.master_id) return;
  const master = await readRow<DcimDevice>(db, DEVICES, values.master_id);
  if (master && master.virtual_chassis !== id) {
    throw new Refusal({ master: `The selected master (${master.name ?? master.id}) is not assigned to this virtual chassis.` });
  }
}

export async function afterSave({ db, id, values, created }: SaveEvent & { id: string | number; created: boolean }): Promise<void> {
  const d = columns(DEVICES);
  if (created && values.master_id) await db(DEVICES.table).where({ id: values.master_id }).update({ [d.virtual_chassis]: id, [d.vc_position]: 1 });
}
