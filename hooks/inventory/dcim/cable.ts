// Nautobot's Cable.clean and the signals around a cable's life: the two ends must exist, suit
// each other and have no other cable; once made, a cable's ends never change. Saving records
// the cable on its ends and retraces the paths it is on; deleting takes it off them.
import { columns, duplicate, readRow, Refusal, type DeletingEvent, type HookDb, type SaveEvent, type SavedEvent, canonicalUuid } from "../../../runtime/hooks.js";
import { connect, disconnect, retraceThrough } from "../lib/cabling.js";
import { namesOf } from "../lib/tables.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimCable } from "../../../generated/inventory/rows.js";

type Row = Record<string, any>;

const CABLES = tables.dcim.cable;

/** Which end types a cable may join (COMPATIBLE_TERMINATION_TYPES). */
const COMPATIBLE: Record<string, string[]> = {
  circuittermination: ["interface", "frontport", "rearport", "circuittermination"],
  consoleport: ["consoleserverport", "frontport", "rearport"],
  consoleserverport: ["consoleport", "frontport", "rearport"],
  interface: ["interface", "circuittermination", "frontport", "rearport"],
  frontport: ["consoleport", "consoleserverport", "interface", "frontport", "rearport", "circuittermination"],
  powerfeed: ["powerport"],
  poweroutlet: ["powerport"],
  powerport: ["poweroutlet", "powerfeed"],
  rearport: ["consoleport", "consoleserverport", "interface", "frontport", "rearport", "circuittermination"],
};

/** Interfaces no cable may reach, virtual and wireless (NONCONNECTABLE_IFACE_TYPES), with their type labels. */
const NONCONNECTABLE = new Map([
  ["virtual", "Virtual"], ["bridge", "Bridge"], ["lag", "Link Aggregation Group (LAG)"], ["ieee802.11a", "IEEE 802.11a"],
  ["ieee802.11g", "IEEE 802.11b/g"], ["ieee802.11n", "IEEE 802.11n"], ["ieee802.11ac", "IEEE 802.11ac"], ["ieee802.11ad", "IEEE 802.11ad"],
]);

/** A content type as Django prints it: `DCIM | interface`. */
const VERBOSE: Record<string, string> = {
  "dcim.consoleport": "DCIM | console port", "dcim.consoleserverport": "DCIM | console server port", "dcim.frontport": "DCIM | front port",
  "dcim.interface": "DCIM | interface", "dcim.poweroutlet": "DCIM | power outlet", "dcim.powerport": "DCIM | power port",
  "dcim.rearport": "DCIM | rear port", "dcim.powerfeed": "DCIM | power feed", "circuits.circuittermination": "Circuits | circuit termination",
};
const verbose = (type: string) => VERBOSE[type] ?? type;

/** A component as Nautobot prints it: its name, and its label when it has one. */
const named = (r: Row) => (r.label ? `${r.name} (${r.label})` : String(r.name ?? r.id));

const SIDES = ["a", "b"] as const;

export async function beforeSave({ db, model, id, values, after: c, changed }: SaveEvent<DcimCable>): Promise<void> {
  // DRF's UniqueTogetherValidator for each end's pair runs before the model's clean(): an end
  // already on that side of another cable is refused as that validator refuses it.
  const cols = columns(CABLES);
  for (const side of SIDES) {
    const [type, end] = [`termination_${side}_type`, `termination_${side}_id`] as const;
    const twin = await db(CABLES.table).where({ [cols[type]]: c[type], [cols[end]]: c[end] }).modify((q) => { if (id !== null) q.whereNot({ id }); }).first("id");
    if (twin) throw duplicate(model, type, end);
  }
  if (id !== null) {
    const moved = "Cable termination points may not be modified. Delete and recreate the cable instead.";
    for (const side of SIDES) {
      if (changed.has(`termination_${side}_type`) || changed.has(`termination_${side}_id`)) throw new Refusal({ [`termination_${side}`]: moved });
    }
  }
  const ends: Row[] = [];
  for (const side of SIDES) {
    const type = c[`termination_${side}_type`]!;
    const end = await lockEnd(db, type, c[`termination_${side}_id`]!);
    if (!end) throw new Refusal({ [`termination_${side}`]: `Invalid ID for type ${verbose(type)}` });
    ends.push(end);
  }
  const [a, b] = ends;
  const [typeA, typeB] = [c.termination_a_type!.split(".")[1], c.termination_b_type!.split(".")[1]];
  for (const [side, type, end] of [["a", typeA, a], ["b", typeB, b]] as const) {
    if (type === "interface" && NONCONNECTABLE.has(end.type)) {
      throw new Refusal({ [`termination_${side}_id`]: `Cables cannot be terminated to ${NONCONNECTABLE.get(end.type)} interfaces` });
    }
  }
  if (!COMPATIBLE[typeA]?.includes(typeB)) {
    throw new Refusal({ non_field_errors: `Incompatible termination types: ${verbose(c.termination_a_type!)} and ${verbose(c.termination_b_type!)}` });
  }
  if (typeA === "rearport" && typeB === "rearport" && a.positions > 1 && b.positions > 1 && a.positions !== b.positions) {
    throw new Refusal({
      non_field_errors: `${named(a)} has ${a.positions} position(s) but ${named(b)} has ${b.positions}. Both terminations must have the same number of positions (if greater than one).`,
    });
  }
  if (c.termination_a_type === c.termination_b_type && a.id === b.id) throw new Refusal({ non_field_errors: `Cannot connect ${verbose(c.termination_a_type!)} to itself` });
  if (["frontport", "rearport"].includes(typeA) && ["frontport", "rearport"].includes(typeB) && (a.rear_port === b.id || b.rear_port === a.id)) {
    throw new Refusal({ non_field_errors: "A front port cannot be connected to it corresponding rear port" });
  }
  for (const [side, type, end] of [["a", typeA, a], ["b", typeB, b]] as const) {
    if (type === "circuittermination" && end.provider_network) {
      throw new Refusal({ [`termination_${side}_id`]: "Circuit terminations attached to a provider network may not be cabled." });
    }
  }
  for (const end of ends) {
    if (end.cable && end.cable !== id) throw new Refusal({ non_field_errors: `${named(end)} already has a cable attached (#${end.cable})` });
  }
  if (c.length != null && !c.length_unit) throw new Refusal({ non_field_errors: "Must specify a unit when setting a cable length" });
  if (c.length == null) values.length_unit = "";
  values.termination_a_device = a.device ?? null;
  values.termination_b_device = b.device ?? null;
}

/**
 * The end row, locked: two cables made at once for one end take turns, so the second sees
 * the first's cable and is refused.
 */
function lockEnd(db: HookDb, type: string, id: string): Promise<Row | undefined> {
  return readRow<Row>(db, namesOf(type), id, true);
}

export async function afterSave({ db, id, after, created }: SavedEvent<DcimCable>): Promise<void> {
  if (!created) return retraceThrough(db, { type: "dcim.cable", id: String(id) });
  // The ends' ids in PostgreSQL's spelling, which the traced paths hold, however they were written.
  await connect(db, {
    id: String(id),
    termination_a_type: after.termination_a_type!, termination_a_id: canonicalUuid(after.termination_a_id!),
    termination_b_type: after.termination_b_type!, termination_b_id: canonicalUuid(after.termination_b_id!),
  });
}

export async function beforeDelete({ db, rows }: DeletingEvent<DcimCable>): Promise<void> {
  await disconnect(db, await rows());
}
