// A config context's data follows its schema, when it has one (Nautobot's ConfigContext.clean).
import type { SaveEvent } from "../../../runtime/hooks.js";
import type { ExtrasConfigContext } from "../../../generated/inventory/rows.js";
import { checkAgainstSchema } from "../lib/context-data.js";

export async function beforeSave({ db, after }: SaveEvent<ExtrasConfigContext>): Promise<void> {
  await checkAgainstSchema(db, "data", after.data, after.schema);
}
