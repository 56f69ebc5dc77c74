// Nautobot's rule for components (and templates) that point at a sibling: a power outlet's
// power port, a front port's rear port must belong to the same device (or device type), and
// a front port maps to a position its rear port has. The parent is whichever of `device` or
// `device_type` the model has.
import { readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, unknown>;

/** The sibling fields, and the models a sibling is of, by the parent field. */
const SIBLINGS = [
  { field: "power_port", noun: "Parent power port", names: { device: tables.dcim.powerport, device_type: tables.dcim.powerporttemplate } },
  { field: "rear_port", noun: "Rear port", names: { device: tables.dcim.rearport, device_type: tables.dcim.rearporttemplate } },
] as const;

/** Of a power outlet, a front port, or their templates: the rows differ, the fields checked do not. */
export async function beforeSave({ db, model, after: row }: SaveEvent): Promise<void> {
  const parent = model.fields.some((f) => f.name === "device_type") ? "device_type" : "device";
  const what = parent === "device" ? "device" : "device type";
  for (const s of SIBLINGS) {
    if (!row[s.field]) continue;
    const sibling = await readRow<Row>(db, s.names[parent], row[s.field]);
    if (!sibling) continue;
    if (sibling[parent] !== row[parent]) throw new Refusal({ non_field_errors: `${s.noun} (${sibling.name}) must belong to the same ${what}` });
    if (s.field === "rear_port" && Number(row.rear_port_position ?? 1) > Number(sibling.positions)) {
      const message = `Invalid rear port position (${row.rear_port_position ?? 1})${parent === "device" ? ": Rear" : "; rear"} port ${sibling.name} has only ${sibling.positions} positions`;
      throw new Refusal(parent === "device" ? { rear_port_position: message } : { non_field_errors: message });
    }
  }
}
