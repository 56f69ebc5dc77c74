// Nautobot's CircuitTermination.clean and the signals around it: a termination is at a site
// or in a provider network, never both; its circuit caches it as termination_a or _z; and
// paths that reach the circuit's other end are retraced when this end comes or goes, since
// a path crosses a circuit only when both its ends exist.
import { columns, Refusal, type DeleteEvent, type HookDb, type SaveEvent, type SavedEvent } from "../../../runtime/hooks.js";
import { retraceEndingAt, retraceThrough } from "../lib/cabling.js";
import { checkLocations } from "../lib/located.js";

const TYPE = "circuits.circuittermination";

export { actions, beforeDelete } from "../dcim/cable-end.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { CircuitsCircuitTermination } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, after: t }: SaveEvent<CircuitsCircuitTermination>): Promise<void> {
  if (!t.site && !t.provider_network) throw new Refusal({ non_field_errors: "A circuit termination must attach to either a site or a provider network." });
  if (t.site && t.provider_network) throw new Refusal({ non_field_errors: "A circuit termination cannot attach to both a site and a provider network." });
  if (t.location && t.provider_network) throw new Refusal({ non_field_errors: "A circuit termination cannot attach to both a location and a provider network." });
  await checkLocations(db, TYPE, "Circuit terminations", [t.site ? t : { ...t, site: undefined }]);
}

/** Retraces the paths that end at, or pass through, the other end of the termination's circuit. */
async function retracePeer(db: HookDb, circuitId: string, side: string): Promise<void> {
  const t = columns(tables.circuits.circuittermination);
  const peer: { id: string } | undefined = await db(tables.circuits.circuittermination.table).where({ [t.circuit]: circuitId, [t.term_side]: side === "A" ? "Z" : "A" }).first("id");
  if (!peer) return;
  await retraceThrough(db, { type: TYPE, id: peer.id });
  await retraceEndingAt(db, { type: TYPE, id: peer.id });
}

export async function afterSave({ db, id, after: t }: SavedEvent<CircuitsCircuitTermination>): Promise<void> {
  const end = t.term_side === "A" ? "termination_a" : "termination_z";
  await db(tables.circuits.circuit.table).where({ id: t.circuit }).update({ [columns(tables.circuits.circuit)[end]]: id });
  await retracePeer(db, t.circuit!, t.term_side!);
}

export async function afterDelete({ db, ids }: DeleteEvent): Promise<void> {
  await retraceThrough(db, ...ids.map((id) => ({ type: TYPE, id: String(id) })));
}
