// Nautobot's rule for components (and templates) that point at a sibling: a power outlet's
// power port, a front port's rear port must belong to the same device (or device type), and
// a front port maps to a position its rear port has. The parent is whichever of `device` or
// `device_type` the model has.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, unknown>;

const SIBLINGS = [
  { column: "power_port_id", noun: "Parent power port", table: { device_id: tables.dcim.powerport.table, device_type_id: tables.dcim.powerporttemplate.table } },
  { column: "rear_port_id", noun: "Rear port", table: { device_id: tables.dcim.rearport.table, device_type_id: tables.dcim.rearporttemplate.table } },
] as const;

export async function beforeSave({ db, model, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const row: Row = { ...current, ...values };
  const parent = "device_type_id" in row || model.fields.some((f) => f.name === "device_type") ? "device_type_id" : "device_id";
  const what = parent === "device_id" ? "device" : "device type";
  for (const s of SIBLINGS) {
    if (!row[s.column]) continue;
    const sibling: Row | undefined = await db(s.table[parent]).where({ id: row[s.column] as string }).first();
    if (!sibling) continue;
    if (sibling[parent] !== row[parent]) throw new Refusal({ non_field_errors: `${s.noun} (${sibling.name}) must belong to the same ${what}` });
    if (s.column === "rear_port_id" && Number(row.rear_port_position ?? 1) > Number(sibling.positions)) {
      const message = `Invalid rear port position (${row.rear_port_position ?? 1})${parent === "device_id" ? ": Rear" : "; rear"} port ${sibling.name} has only ${sibling.positions} positions`;
      throw new Refusal(parent === "device_id" ? { rear_port_position: message } : { non_field_errors: message });
    }
  }
}
