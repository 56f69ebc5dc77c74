// Cables and the paths they make, as Nautobot's dcim signals and CablePath keep them: a
// cable end knows its cable and the far end of it; a path endpoint knows where its traced
// path ends (through front/rear port pairs and circuits) and whether every cable on the way
// is connected. Paths are stored (dcim_cablepath, nodes as "app.model:id") and retraced
// only when a cable on them, or a port they pass through, changes; reads never trace.
import { columns, fields, readRow, Refusal, type ActionEvent, type HookDb } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimCable } from "../../../generated/inventory/rows.js";
import { namesOf } from "./tables.js";

/** A row of a cable end or a path endpoint, of whichever model, by field name. */
type Row = Record<string, any>;
export interface Node { type: string; id: string }

const CABLES = tables.dcim.cable;
/** The fields every cable end has (spec/inventory/dcim/cable.ts cableEnd), and those of a path endpoint. */
const end = (type: string) => columns(namesOf(type)) as { cable: string; cable_peer_type: string; cable_peer_id: string };
const endpoint = (type: string) => columns(namesOf(type)) as { connected_endpoint_type: string; connected_endpoint_id: string; connected_endpoint_reachable: string };

/** Models that are path endpoints (Nautobot's PathEndpoint subclasses). */
export const ENDPOINTS = new Set([
  "dcim.consoleport", "dcim.consoleserverport", "dcim.interface", "dcim.poweroutlet", "dcim.powerport", "dcim.powerfeed",
  "circuits.circuittermination",
]);

/** The traced paths: a table of the cable spec's own SQL, no model's, so no generated name. */
const PATHS = "dcim_cablepath";
const node = (n: Node) => `${n.type}:${n.id}`;

function fetch(db: HookDb, n: Node): Promise<Row | undefined> {
  return readRow<Row>(db, namesOf(n.type), n.id);
}

interface Traced { path: string[]; destination: Node | null; isActive: boolean; isSplit: boolean }

/** Follows cables from `origin` (CablePath.from_origin); null when it has no cable. */
async function follow(db: HookDb, origin: Node): Promise<Traced | null> {
  let current: Node = origin;
  let row = await fetch(db, current);
  if (!row?.cable) return null;
  const path: string[] = [];
  const positions: number[] = [];
  const visited = new Set<string>();
  let destination: Node | null = null;
  let isActive = true;
  let isSplit = false;
  while (row?.cable) {
    if (visited.has(current.id)) throw new Refusal({ non_field_errors: "a loop is detected in the path" });
    visited.add(current.id);
    const cable = (await readRow<DcimCable>(db, CABLES, row.cable))!;
    if (cable.status !== "connected") isActive = false;
    path.push(node({ type: "dcim.cable", id: cable.id }));
    const peer: Node = { type: row.cable_peer_type, id: row.cable_peer_id };
    const peerRow = await fetch(db, peer);
    if (!peerRow) break;
    if (peer.type === "dcim.frontport") {
      path.push(node(peer));
      current = { type: "dcim.rearport", id: peerRow.rear_port };
      row = await fetch(db, current);
      if (Number(row!.positions) > 1) positions.push(Number(peerRow.rear_port_position));
      path.push(node(current));
    } else if (peer.type === "dcim.rearport") {
      path.push(node(peer));
      let position: number;
      if (Number(peerRow.positions) === 1) position = 1;
      else if (positions.length) position = positions.pop()!;
      else { isSplit = true; break; }
      const fp = columns(tables.dcim.frontport);
      const front: Row | undefined = await db(tables.dcim.frontport.table).where({ [fp.rear_port]: peer.id, [fp.rear_port_position]: position })
        .first(fields(tables.dcim.frontport));
      if (!front) break;
      current = { type: "dcim.frontport", id: front.id };
      row = front;
      path.push(node(current));
    } else if (peer.type === "circuits.circuittermination") {
      const ct = columns(tables.circuits.circuittermination);
      const far: Row | undefined = await db(tables.circuits.circuittermination.table)
        .where({ [ct.circuit]: peerRow.circuit, [ct.term_side]: peerRow.term_side === "A" ? "Z" : "A" }).first(fields(tables.circuits.circuittermination));
      if (!far) { destination = peer; break; }
      path.push(node(peer));
      current = { type: "circuits.circuittermination", id: far.id };
      row = far;
      path.push(node(current));
    } else {
      destination = peer;
      break;
    }
  }
  return { path, destination, isActive: isActive && destination !== null, isSplit };
}

/** Traces `origin` again and stores the result: its path row and its own connected_endpoint fields. */
export async function retrace(db: HookDb, origin: Node): Promise<void> {
  if (!ENDPOINTS.has(origin.type)) return;
  const traced = await follow(db, origin);
  const key = { origin_type: origin.type, origin_id: origin.id };
  const c = endpoint(origin.type);
  if (!traced) {
    await db(PATHS).where(key).del();
    await db(namesOf(origin.type).table).where({ id: origin.id })
      .update({ [c.connected_endpoint_type]: null, [c.connected_endpoint_id]: null, [c.connected_endpoint_reachable]: null });
    return;
  }
  const values = {
    destination_type: traced.destination?.type ?? null,
    destination_id: traced.destination?.id ?? null,
    path: JSON.stringify(traced.path),
    is_active: traced.isActive,
    is_split: traced.isSplit,
  };
  await db(PATHS).insert({ ...key, ...values }).onConflict(["origin_type", "origin_id"]).merge(values);
  await db(namesOf(origin.type).table).where({ id: origin.id }).update({
    [c.connected_endpoint_type]: values.destination_type,
    [c.connected_endpoint_id]: values.destination_id,
    [c.connected_endpoint_reachable]: traced.isActive,
  });
}

/** Retraces the stored paths that end at `n`. */
export async function retraceEndingAt(db: HookDb, n: Node): Promise<void> {
  const ending: Row[] = await db(PATHS).where({ destination_type: n.type, destination_id: n.id }).select("origin_type", "origin_id");
  for (const o of ending) await retrace(db, { type: o.origin_type, id: o.origin_id });
}

/**
 * Retraces every stored path passing through any of `nodes` (Nautobot's rebuild_paths), each
 * once: the paths are found in one statement, by the path index.
 */
export async function retraceThrough(db: HookDb, ...nodes: Node[]): Promise<void> {
  if (!nodes.length) return;
  const origins: Row[] = await db(PATHS).where((q) => { for (const n of nodes) q.orWhereRaw("path @> ?::jsonb", [JSON.stringify([node(n)])]); })
    .distinct("origin_type", "origin_id");
  for (const o of origins) await retrace(db, { type: o.origin_type, id: o.origin_id });
}

/** What a cable's ends are: its id, and the type and id of each end. */
type Ends = Pick<DcimCable, "id" | "termination_a_type" | "termination_a_id" | "termination_b_type" | "termination_b_id">;

/** Records a new cable on its two ends and traces the paths it completes (update_connected_endpoints). */
export async function connect(db: HookDb, cable: Ends): Promise<void> {
  const a: Node = { type: cable.termination_a_type, id: cable.termination_a_id };
  const b: Node = { type: cable.termination_b_type, id: cable.termination_b_id };
  for (const [near, far] of [[a, b], [b, a]]) {
    const c = end(near.type);
    await db(namesOf(near.type).table).where({ id: near.id }).update({ [c.cable]: cable.id, [c.cable_peer_type]: far.type, [c.cable_peer_id]: far.id });
  }
  for (const end of [a, b]) {
    await retrace(db, end);
    await retraceThrough(db, end);
  }
}

/**
 * Takes cables off their ends, one statement per kind of end, and retraces every path they
 * were on (nullify_connected_endpoints).
 */
export async function disconnect(db: HookDb, cables: ReadonlyArray<Ends>): Promise<void> {
  const ends = new Map<string, Array<[string, string]>>();
  for (const cable of cables) {
    for (const [type, id] of [[cable.termination_a_type, cable.termination_a_id], [cable.termination_b_type, cable.termination_b_id]]) {
      ends.set(type, [...(ends.get(type) ?? []), [id, cable.id]]);
    }
  }
  for (const [type, held] of ends) {
    const c = end(type);
    await db(namesOf(type).table).whereIn(["id", c.cable], held).update({ [c.cable]: null, [c.cable_peer_type]: null, [c.cable_peer_id]: null });
  }
  await retraceThrough(db, ...cables.map((cable) => ({ type: "dcim.cable", id: cable.id })));
}

/**
 * Before cable ends are deleted: their cables go too (Nautobot's GenericRelation to Cable),
 * taken off both ends first so the far ends and the paths through them are kept right.
 */
export async function removeCablesOf(db: HookDb, type: string, ids: Array<string | number>): Promise<void> {
  const c = columns(CABLES);
  const cables: Ends[] = await db(CABLES.table)
    .where((q) => q.where(c.termination_a_type, type).whereIn(c.termination_a_id, ids))
    .orWhere((q) => q.where(c.termination_b_type, type).whereIn(c.termination_b_id, ids))
    .select(fields(CABLES, ["id", "termination_a_type", "termination_a_id", "termination_b_type", "termination_b_id"]));
  if (!cables.length) return;
  await disconnect(db, cables);
  await db(CABLES.table).whereIn("id", cables.map((x) => x.id)).del();
}

const parse = (s: string): Node => { const i = s.indexOf(":"); return { type: s.slice(0, i), id: s.slice(i + 1) }; };
const ref = (n: Node) => ({ model: n.type, id: n.id });
/** The fields Nautobot's TracedCableSerializer shows of a cable on a trace. */
const TRACED_CABLE = ["id", "url", "type", "status", "label", "color", "length", "length_unit"];

/**
 * A path endpoint's `trace` action (PathEndpoint.trace): its stored path as [near end, cable,
 * far end] triples, each end in its nested form; a path ending at a rear port is padded.
 */
export async function trace({ db, model, id, read }: ActionEvent): Promise<unknown[]> {
  const stored: Row | undefined = await db(PATHS).where({ origin_type: model.key, origin_id: id }).first();
  if (!stored) return [];
  const nodes: Array<Node | null> = [{ type: model.key, id: id! }, ...(stored.path as string[]).map(parse)];
  if (stored.destination_id) nodes.push({ type: stored.destination_type, id: stored.destination_id });
  while (nodes.length % 3) nodes.splice(nodes.length - 1, 0, null);
  const cables = nodes.filter((n): n is Node => n?.type === "dcim.cable");
  const ends = nodes.filter((n): n is Node => n !== null && n.type !== "dcim.cable");
  const [cableRows, endRows] = await Promise.all([read(cables.map(ref), "full"), read(ends.map(ref), "nested")]);
  const shown = new Map<string, unknown>();
  cables.forEach((c, i) => shown.set(node(c), cableRows[i] && Object.fromEntries(TRACED_CABLE.map((k) => [k, cableRows[i]![k]]))));
  ends.forEach((e, i) => shown.set(node(e), endRows[i]));
  const out: unknown[] = [];
  for (let i = 0; i < nodes.length; i += 3) {
    const [near, cable, far] = nodes.slice(i, i + 3);
    if (!near) break;
    out.push([shown.get(node(near)) ?? null, cable ? shown.get(node(cable)) ?? null : null, far ? shown.get(node(far)) ?? null : null]);
  }
  return out;
}

/** A pass-through port's `paths` action: every stored path through it (Nautobot's CablePathSerializer). */
export async function paths({ db, model, id, read }: ActionEvent): Promise<unknown[]> {
  const stored: Row[] = await db(PATHS).whereRaw("path @> ?::jsonb", [JSON.stringify([`${model.key}:${id}`])]).orderBy("id");
  const refs: Node[] = stored.flatMap((p) => [
    { type: p.origin_type, id: p.origin_id }, ...(p.destination_id ? [{ type: p.destination_type, id: p.destination_id }] : []), ...(p.path as string[]).map(parse),
  ]);
  const rows = await read(refs.map(ref), "nested");
  const shown = new Map(refs.map((n, i) => [node(n), rows[i]]));
  return stored.map((p) => ({
    id: p.id,
    origin_type: p.origin_type,
    origin: shown.get(node({ type: p.origin_type, id: p.origin_id })) ?? null,
    destination_type: p.destination_type,
    destination: p.destination_id ? shown.get(node({ type: p.destination_type, id: p.destination_id })) ?? null : null,
    path: (p.path as string[]).map((n) => shown.get(n) ?? null),
    is_active: p.is_active,
    is_split: p.is_split,
  }));
}
