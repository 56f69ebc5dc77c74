// Nautobot's CustomField: the 1.2 serializer's label and slug filling, the 1.4 one's name from
// the slug, CustomField.clean (the default judged as a value, rules only for the types they
// suit, name, slug and type fixed),
// and its signals and tasks: a field gets its default into every object of a content type it is
// given (one UPDATE per type added), and loses its values where a type is taken away or it is
// deleted. A write that leaves content_types alone touches no object.
import {
  type ContentTypesField, columns, duplicate, Refusal, type DeletingEvent, type HookDb, type SaveEvent, compileRegex, valueProblem, slugify,
} from "../../../runtime/hooks.js";
import { dataOf, labelsOf, labelsOfEach } from "../lib/custom-field-data.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasCustomField } from "../../../generated/inventory/rows.js";

const REGEX_TYPES = new Set(["text", "url", "select", "multi-select"]);

const contentTypes = (m: SaveEvent["model"]) => m.fields.find((f): f is ContentTypesField => f.kind === "contentTypes")!;

export async function beforeSave({ db, model, id, values, before, changed, links }: SaveEvent<ExtrasCustomField>): Promise<void> {
  if (id === null) {
    if (!values.name) {
      // The 1.4 serializer checks the slug's uniqueness (its UniqueValidator) before it names the field.
      if (await db(model.table).where({ [columns(tables.extras.customfield).slug]: values.slug }).first("id")) throw duplicate(model, "slug");
      values.name = values.slug;
    }
    if (!values.label) values.label = values.name;
    if (!values.slug) values.slug = slugify(String(values.label)).replace(/-/g, "_");
  } else {
    for (const [key, word] of [["name", "Name"], ["slug", "Slug"], ["type", "Type"]] as const) {
      if (changed.has(key)) throw new Refusal({ [key]: `${word} cannot be changed once created` });
    }
  }
  // The field as it will be stored, with the names filled above.
  const cf = { validation_minimum: null, validation_maximum: null, validation_regex: "", required: false, ...before, ...values };
  const fallback = cf.default;
  if (cf.validation_regex && !compileRegex(cf.validation_regex)) {
    throw new Refusal({ validation_regex: `${cf.validation_regex} is not a valid regular expression.` });
  }
  if (fallback !== null && fallback !== undefined) {
    const c = columns(tables.extras.customfieldchoice);
    const choices = id === null ? [] : (await db(tables.extras.customfieldchoice.table).where(c.field, id).orderBy([c.weight, c.value]).pluck(c.value));
    const problem = valueProblem({ ...cf, default: fallback, choices } as never, fallback);
    if (problem) throw new Refusal({ default: { code: "custom_field_default_invalid", value: fallback, reason: problem } });
  }
  if (cf.validation_minimum !== null && cf.validation_minimum !== undefined && cf.type !== "integer") {
    throw new Refusal({ validation_minimum: "A minimum value may be set only for numeric fields" });
  }
  if (cf.validation_maximum !== null && cf.validation_maximum !== undefined && cf.type !== "integer") {
    throw new Refusal({ validation_maximum: "A maximum value may be set only for numeric fields" });
  }
  if (cf.validation_regex && !REGEX_TYPES.has(cf.type!)) {
    throw new Refusal({ validation_regex: "Regular expression validation is supported only for text, URL and select fields" });
  }
  const given = links[contentTypes(model).name] as string[] | undefined;
  if (given === undefined) return;
  // Before the link set is replaced, so what the field held is still there to compare with.
  const held = id === null ? [] : await labelsOf(db, id);
  const value = JSON.stringify(fallback ?? null);
  for (const label of given.filter((l) => !held.includes(l))) {
    const { table, column } = dataOf(label);
    await db.raw(`UPDATE ?? SET ?? = ?? || jsonb_build_object(?::text, ?::jsonb) WHERE NOT jsonb_exists(??, ?)`,
      [table, column, column, cf.name!, value, column, cf.name!]);
  }
  for (const label of held.filter((l) => !given.includes(l))) await dropValues(db, label, [cf.name!]);
}

/** Takes the values of the custom fields `names` out of the objects of the model `label` names. */
async function dropValues(db: HookDb, label: string, names: string[]): Promise<void> {
  const { table, column } = dataOf(label);
  await db.raw(`UPDATE ?? SET ?? = ?? - ?::text[] WHERE jsonb_exists_any(??, ?::text[])`, [table, column, column, names, column, names]);
}

/** The deleted fields' values leave the objects: one statement per content type, however many fields go. */
export async function beforeDelete({ db, rows }: DeletingEvent<ExtrasCustomField>): Promise<void> {
  const deleted = await rows();
  const labels = await labelsOfEach(db, deleted.map((cf) => cf.id));
  const names = new Map<string, string[]>();
  for (const cf of deleted) for (const label of labels.get(cf.id) ?? []) names.set(label, [...(names.get(label) ?? []), cf.name]);
  for (const [label, dropped] of names) await dropValues(db, label, dropped);
}
