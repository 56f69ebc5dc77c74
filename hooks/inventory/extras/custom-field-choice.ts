// Nautobot's CustomFieldChoice.clean: choices only for selection fields, each value matching
// the field's regular expression.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { compileRegex } from "../../../runtime/custom-fields/values.js";

export async function beforeSave({ db, model, id, values }: SaveEvent): Promise<void> {
  const current = id === null ? {} : (await db(model.table).where({ id }).first()) ?? {};
  const choice = { ...current, ...values };
  const field = await db("extras_customfield").where({ id: choice.field_id }).first();
  if (field.type !== "select" && field.type !== "multi-select") {
    throw new Refusal({ __all__: "Custom field choices can only be assigned to selection fields." });
  }
  if (!compileRegex(field.validation_regex)?.test(choice.value)) {
    throw new Refusal({ __all__: `Value must match regex ${field.validation_regex} got ${choice.value}.` });
  }
}
