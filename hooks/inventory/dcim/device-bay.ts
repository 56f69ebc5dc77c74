// Nautobot's DeviceBay.clean: only parent device types have bays; a device cannot hold itself
// or be installed in two bays; only child device types may be installed.
import { columns, fields, readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimDevice, DcimDeviceBay, DcimDeviceType, DcimManufacturer } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, id, after: row }: SaveEvent<DcimDeviceBay>): Promise<void> {
  const device = await readRow<DcimDevice>(db, tables.dcim.device, row.device);
  const type = device && (await readRow<DcimDeviceType>(db, tables.dcim.devicetype, device.device_type));
  if (type && type.subdevice_role !== "parent") {
    const maker = await readRow<DcimManufacturer>(db, tables.dcim.manufacturer, type.manufacturer);
    throw new Refusal({ non_field_errors: `This type of device (${maker?.name ?? ""} ${type.model}) does not support device bays.` });
  }
  if (row.installed_device && row.installed_device === row.device) throw new Refusal({ non_field_errors: "Cannot install a device into itself." });
  if (row.installed_device) {
    const bays = tables.dcim.devicebay;
    const elsewhere: Pick<DcimDeviceBay, "device" | "name"> | undefined = await db(bays.table).where({ [columns(bays).installed_device]: row.installed_device })
      .modify((q) => { if (id !== null) q.whereNot({ id }); }).first(fields(bays, ["device", "name"]));
    if (elsewhere) {
      const holder = await readRow<DcimDevice>(db, tables.dcim.device, elsewhere.device);
      throw new Refusal({ installed_device: `Cannot install the specified device; device is already installed in ${holder?.name ?? ""} - ${elsewhere.name}` });
    }
  }
}
