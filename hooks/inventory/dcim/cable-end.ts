// A path endpoint (console, console server and power ports, power outlets): deleting its rows
// takes their cables along, first taken off both ends so the far end and the paths through
// it stay right; its `trace` action shows its traced path.
import type { DeleteEvent } from "../../../runtime/hooks.js";
import { removeCablesOf, trace } from "../lib/cabling.js";

export async function beforeDelete({ db, model, ids }: DeleteEvent): Promise<void> {
  await removeCablesOf(db, model.key, ids);
}

export const actions = { trace };
