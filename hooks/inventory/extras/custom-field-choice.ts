// Nautobot's CustomFieldChoice: choices only for selection fields, each value matching the
// field's regular expression; a renamed value is renamed in the objects holding it
// (update_custom_field_choice_data); a value that is the field's default or in use cannot be
// deleted (ProtectedError, a 409).
import { HttpError, fields, readRow, Refusal, type DeletingEvent, type HookDb, type SaveEvent, compileRegex } from "../../../runtime/hooks.js";
import { dataOf, labelsOf, labelsOfEach } from "../lib/custom-field-data.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasCustomField, ExtrasCustomFieldChoice } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

/** The match of the objects holding `value` in field `cf`: the value itself, or a list containing it. */
const holding = (cf: Row, value: string) => JSON.stringify({ [cf.name]: cf.type === "select" ? value : [value] });

async function renameValue(db: HookDb, cf: Row, from: string, to: string): Promise<void> {
  const replaced = cf.type === "select"
    ? "to_jsonb(?::text)"
    : `(SELECT jsonb_agg(CASE WHEN e = to_jsonb(?::text) THEN to_jsonb(?::text) ELSE e END) FROM jsonb_array_elements(?? -> ?) e)`;
  for (const label of await labelsOf(db, cf.id)) {
    const { table, column } = dataOf(label);
    const binds = cf.type === "select" ? [to] : [from, to, column, cf.name];
    await db.raw(`UPDATE ?? SET ?? = jsonb_set(??, ARRAY[?::text], ${replaced}) WHERE ?? @> ?::jsonb`,
      [table, column, column, cf.name, ...binds, column, holding(cf, from)]);
  }
}

export async function beforeSave({ db, before, after: choice, changed }: SaveEvent<ExtrasCustomFieldChoice>): Promise<void> {
  const field = (await readRow<ExtrasCustomField>(db, tables.extras.customfield, choice.field))!;
  if (field.type !== "select" && field.type !== "multi-select") {
    throw new Refusal({ __all__: "Custom field choices can only be assigned to selection fields." });
  }
  if (!compileRegex(field.validation_regex)?.test(choice.value!)) {
    throw new Refusal({ __all__: `Value must match regex ${field.validation_regex} got ${choice.value}.` });
  }
  if (before && changed.has("value")) await renameValue(db, field, before.value, choice.value!);
}

/** Whether `value` is the field's default (Python's `in`: membership of a list, a substring of a string). */
function isDefault(cf: ExtrasCustomField, value: string): boolean {
  const fallback = cf.default;
  return fallback !== null && fallback !== "" && (cf.type === "select" ? fallback === value
    : Array.isArray(fallback) ? fallback.includes(value) : typeof fallback === "string" && fallback.includes(value));
}

/**
 * The first of the deleted choices that is its field's default or held by an object refuses
 * the delete. Their fields, and the content types these apply to, are one statement each; what
 * objects hold is one statement per content type, for every choice at once.
 */
export async function beforeDelete({ db, rows }: DeletingEvent<ExtrasCustomFieldChoice>): Promise<void> {
  const choices = await rows();
  const CFS = tables.extras.customfield;
  const found: ExtrasCustomField[] = await db(CFS.table).whereIn("id", [...new Set(choices.map((c) => c.field))]).select(fields(CFS));
  const cfs = new Map(found.map((cf) => [cf.id, cf]));
  const labels = await labelsOfEach(db, found.map((cf) => cf.id));
  const asked = new Map<string, string[]>();
  for (const choice of choices) {
    const cf = cfs.get(choice.field)!;
    if (isDefault(cf, choice.value)) continue;
    for (const label of labels.get(cf.id) ?? []) asked.set(label, [...(asked.get(label) ?? []), holding(cf, choice.value)]);
  }
  const held = new Set<string>();
  for (const [label, matches] of asked) {
    const { table, column } = dataOf(label);
    const { rows: inUse } = await db.raw("SELECT m FROM unnest(?::text[]) AS m WHERE EXISTS (SELECT 1 FROM ?? WHERE ?? @> m::jsonb)", [matches, table, column]);
    for (const { m } of inUse as Array<{ m: string }>) held.add(m);
  }
  const refused = choices.find((c) => isDefault(cfs.get(c.field)!, c.value) || held.has(holding(cfs.get(c.field)!, c.value)));
  if (refused) throw new HttpError(409, { code: "protected", dependents: [{ display: refused.value, id: refused.id }] });
}
