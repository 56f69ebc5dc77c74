// A config context's data follows its schema, when it has one (Nautobot's ConfigContext.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import { checkAgainstSchema } from "./context-data.js";

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  const current: Record<string, unknown> = id === null ? {} : (await db("extras_configcontext").where({ id }).first()) ?? {};
  const c = { ...current, ...values };
  await checkAgainstSchema(db, "data", c.data, c.schema_id);
}
