// The words of a duplicate refused by a unique constraint, as Nautobot's stack gives them.
// Takes the model and the fields of the violated constraint; gives the field errors. Where a
// DRF validator the serializer adds checks it, DRF's words (verbose names as declared); where
// Django's model validation does, Django's (each name capitalised, as `capfirst`).
import type { FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import type { FieldErrors } from "../errors.js";

/** Django's `capfirst`: the first character upper-case, the rest as written. */
const capfirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A field's Django `verbose_name`: as declared, else the name with spaces for underscores. */
const verbose = (f: FieldDescriptor) => f.verboseName ?? f.name.replace(/_/g, " ");

/** Django's `get_text_list(items, "and")`: `A, B and C`. */
function textList(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function duplicateErrors(m: ModelDescriptor, fields: FieldDescriptor[]): FieldErrors {
  const names = fields.map((f) => f.name);
  const group = m.uniqueTogether.find((g) => g.fields.length === names.length && g.fields.every((n) => names.includes(n)));
  // Reported in the order the model declares the group, as both validators list it.
  const ordered = group ? group.fields.map((n) => fields.find((f) => f.name === n)!) : fields;
  const byDjango = ordered.length === 1 && !group ? ordered[0].uniqueCheckedBy === "django" : group?.checkedBy === "django";
  if (ordered.length === 1) {
    const [f] = ordered;
    if (byDjango) return { [f.name]: [`${capfirst(m.sentenceName)} with this ${capfirst(verbose(f))} already exists.`] };
    return { [f.name]: [f.uniqueMessage ?? `${m.sentenceName} with this ${verbose(f)} already exists.`] };
  }
  if (byDjango) return { __all__: [`${capfirst(m.sentenceName)} with this ${textList(ordered.map((f) => capfirst(verbose(f))))} already exists.`] };
  return { non_field_errors: [`The fields ${ordered.map((f) => f.name).join(", ")} must make a unique set.`] };
}
