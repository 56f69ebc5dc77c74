// Nautobot's VirtualChassis: an existing chassis's master must be one of its members; a new
// chassis makes its master the first member (position 1), as Nautobot's post-save signal does.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  if (id === null || !values.master_id) return;
  const master = await db(tables.dcim.device.table).where({ id: values.master_id as string }).first();
  if (master && master.virtual_chassis_id !== id) {
    throw new Refusal({ master: `The selected master (${master.name ?? master.id}) is not assigned to this virtual chassis.` });
  }
}

export async function afterSave({ db, id, values, created }: SaveEvent & { id: string | number; created: boolean }): Promise<void> {
  if (created && values.master_id) await db(tables.dcim.device.table).where({ id: values.master_id as string }).update({ virtual_chassis_id: id, vc_position: 1 });
}
