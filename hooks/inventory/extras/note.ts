// Nautobot's Note.save and its slug: the author's username is kept as text ("Undefined"
// without one), and a note made without a slug gets one from what it is attached to and the
// time, as slugify(f"{...[:50]}-{datetime.now().isoformat()}").
import { fields, type SaveEvent, slugify } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasNote } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, id, values }: SaveEvent<ExtrasNote>): Promise<void> {
  if (id !== null) return;
  const user = values.user ? await db(tables.users.user.table).where({ id: values.user }).first(fields(tables.users.user, ["username"])) : undefined;
  values.user_name = user?.username ?? "Undefined";
  if (!values.slug) {
    // Python's isoformat has microseconds and no zone. The monotonic clock's microseconds keep
    // apart two notes of one millisecond: they are less than 1,000 µs apart, so these digits
    // differ (the nanosecond digits used before matched one time in a thousand).
    const now = new Date().toISOString().replace("Z", String((process.hrtime.bigint() / 1000n) % 1000n).padStart(3, "0"));
    // The object's own words (Nautobot's str(obj)) are not at hand here: its model name stands in.
    const model = String(values.assigned_object_type ?? "").split(".").pop();
    values.slug = slugify(`${model}-${now}`).slice(0, 100);
  }
}
