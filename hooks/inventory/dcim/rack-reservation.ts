// Nautobot's RackReservation.clean: the units are unit numbers of the rack that no other
// reservation of it holds. The rack row is locked first, so two reservations of one unit
// made at once cannot both pass.
import { columns, readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimRack, DcimRackReservation } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, id, after }: SaveEvent<DcimRackReservation>): Promise<void> {
  const { units } = after;
  if (!Array.isArray(units) || units.length === 0 || !units.every((u) => Number.isInteger(u) && u >= 0 && u <= 32767)) {
    throw new Refusal({ units: "Enter a list of rack unit numbers." });
  }
  const rack = await readRow<DcimRack>(db, tables.dcim.rack, after.rack, true);
  if (!rack) return;
  const invalid = units.filter((u) => u < 1 || u > Number(rack.u_height));
  if (invalid.length) throw new Refusal({ units: `Invalid unit(s) for ${rack.u_height}U rack: ${invalid.join(", ")}` });
  const r = columns(tables.dcim.rackreservation);
  const others = await db(tables.dcim.rackreservation.table).where({ [r.rack]: rack.id }).modify((q) => { if (id !== null) q.whereNot({ id }); }).pluck(r.units);
  const reserved = new Set(others.flatMap((u: number[]) => u));
  const conflicting = units.filter((u) => reserved.has(u));
  if (conflicting.length) throw new Refusal({ units: `The following units have already been reserved: ${conflicting.join(", ")}` });
}
