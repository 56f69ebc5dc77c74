// A config context's data follows its schema, when it has one (Nautobot's ConfigContext.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkAgainstSchema } from "../lib/context-data.js";

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Record<string, unknown> = before ?? {};
  const c = { ...current, ...values };
  await checkAgainstSchema(db, "data", c.data, c.schema_id);
}
