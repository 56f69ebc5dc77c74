// A model cables end on: deleting its rows takes their cables along, first taken off both
// ends so the far end and the paths through it stay right.
import type { DeleteEvent } from "../../../runtime/hooks.js";
import { removeCablesOf } from "./cabling.js";

export async function beforeDelete({ db, model, ids }: DeleteEvent): Promise<void> {
  await removeCablesOf(db, model.key, ids);
}
