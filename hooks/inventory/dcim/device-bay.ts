// Nautobot's DeviceBay.clean: only parent device types have bays; a device cannot hold itself
// or be installed in two bays; only child device types may be installed.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, unknown>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const row: Row = { ...current, ...values };
  const device: Row | undefined = await db(tables.dcim.device.table).where({ id: row.device_id as string }).first();
  const type: Row | undefined = device && (await db(tables.dcim.devicetype.table).where({ id: device.device_type_id as string }).first());
  if (type && type.subdevice_role !== "parent") {
    const maker = await db(tables.dcim.manufacturer.table).where({ id: type.manufacturer_id as string }).first();
    throw new Refusal({ non_field_errors: `This type of device (${maker?.name ?? ""} ${type.model}) does not support device bays.` });
  }
  if (row.installed_device_id && row.installed_device_id === row.device_id) throw new Refusal({ non_field_errors: "Cannot install a device into itself." });
  if (row.installed_device_id) {
    const elsewhere = await db(tables.dcim.devicebay.table).where({ installed_device_id: row.installed_device_id as string }).modify((q) => { if (id !== null) q.whereNot({ id }); }).first();
    if (elsewhere) {
      const holder = await db(tables.dcim.device.table).where({ id: elsewhere.device_id as string }).first();
      throw new Refusal({ installed_device: `Cannot install the specified device; device is already installed in ${holder?.name ?? ""} - ${elsewhere.name}` });
    }
  }
}
