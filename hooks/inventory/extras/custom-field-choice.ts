// Nautobot's CustomFieldChoice: choices only for selection fields, each value matching the
// field's regular expression; a renamed value is renamed in the objects holding it
// (update_custom_field_choice_data); a value that is the field's default or in use cannot be
// deleted (ProtectedError, a 409).
import { HttpError } from "../../../runtime/errors.js";
import { readRow, Refusal, type DeletingEvent, type HookDb, type SaveEvent } from "../../../runtime/hooks.js";
import { compileRegex } from "../../../runtime/features/custom-fields/values.js";
import { dataOf, labelsOf } from "../lib/custom-field-data.js";
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

export async function beforeDelete({ db, rows }: DeletingEvent<ExtrasCustomFieldChoice>): Promise<void> {
  for (const choice of await rows()) {
    const cf = (await readRow<ExtrasCustomField>(db, tables.extras.customfield, choice.field))!;
    const fallback = cf.default;
    // Python's `in`: membership of a list, a substring of a string.
    const isDefault = fallback !== null && fallback !== "" && (cf.type === "select" ? fallback === choice.value
      : Array.isArray(fallback) ? fallback.includes(choice.value) : typeof fallback === "string" && fallback.includes(choice.value));
    let inUse = false;
    for (const label of isDefault ? [] : await labelsOf(db, cf.id)) {
      const { table, column } = dataOf(label);
      inUse ||= Boolean(await db(table).whereRaw("?? @> ?::jsonb", [column, holding(cf, choice.value)]).first("id"));
    }
    if (isDefault || inUse) {
      throw new HttpError(409, { code: "protected", dependents: [{ display: choice.value, id: choice.id }] });
    }
  }
}
