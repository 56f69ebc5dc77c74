// A duplicate refused by a unique constraint, reported where Nautobot's stack reports it.
// Takes the model and the fields of the violated constraint; gives the field errors. Where a
// DRF validator the serializer adds checks it, under the field (or `non_field_errors` for a
// group); where Django's model validation does, under the field (or `__all__`).
import type { FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import type { FieldErrors } from "../errors.js";

const named = (f: FieldDescriptor) => (f.verboseName ? { name: f.name, verboseName: f.verboseName } : { name: f.name });

export function duplicateErrors(m: ModelDescriptor, fields: FieldDescriptor[]): FieldErrors {
  const names = fields.map((f) => f.name);
  const group = m.uniqueTogether.find((g) => g.fields.length === names.length && g.fields.every((n) => names.includes(n)));
  // Reported in the order the model declares the group, as both validators list it.
  const ordered = group ? group.fields.map((n) => fields.find((f) => f.name === n)!) : fields;
  const byDjango = ordered.length === 1 && !group ? ordered[0].uniqueCheckedBy === "django" : group?.checkedBy === "django";
  const by = byDjango ? "django" as const : "serializer" as const;
  if (ordered.length === 1) {
    const [f] = ordered;
    return { [f.name]: [{ code: "unique", by, model: m.sentenceName, fields: [named(f)], ...(!byDjango && f.uniqueMessage ? { message: f.uniqueMessage } : {}) }] };
  }
  if (byDjango) return { __all__: [{ code: "unique", by, model: m.sentenceName, fields: ordered.map(named) }] };
  return { non_field_errors: [{ code: "unique_set", fields: ordered.map((f) => f.name) }] };
}
