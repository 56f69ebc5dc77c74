// A rack's location rule, and its elevation (Nautobot's RackViewSet.elevation in JSON, Rack.get_rack_units): one
// entry per unit, top unit first unless the rack numbers its units top-down, with the
// device that fills it on the face asked for (full-depth devices fill both faces).
import { columns, fields, readRow, Refusal, type ActionEvent, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocations } from "../lib/located.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimRack } from "../../../generated/inventory/rows.js";

const FACES: Record<string, string> = { front: "Front", rear: "Rear" };
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const TRUE = new Set(["true", "True", "1", "yes", "on"]);
const FALSE = new Set(["false", "False", "0", "no", "off"]);

/** The query parameters of Nautobot's RackElevationDetailFilterSerializer, checked as it checks them. */
function options(params: Map<string, string[]>) {
  const one = (name: string) => params.get(name)?.at(-1);
  const face = one("face") ?? "front";
  if (!(face in FACES)) throw new Refusal({ face: { code: "invalid_choice", value: face, plain: true } });
  const render = one("render") ?? "json";
  if (render === "svg") throw new Refusal({ render: "This server renders elevations as JSON only (render=json)." });
  if (render !== "json") throw new Refusal({ render: { code: "invalid_choice", value: render, plain: true } });
  const exclude = one("exclude");
  if (exclude !== undefined && !UUID.test(exclude)) throw new Refusal({ exclude: { code: "invalid_uuid" } });
  const expand = one("expand_devices") ?? "true";
  if (!TRUE.has(expand) && !FALSE.has(expand)) throw new Refusal({ expand_devices: { code: "invalid_boolean" } });
  return { face, exclude, expand: TRUE.has(expand), q: one("q") ?? "" };
}

async function elevation({ db, id, params, read }: ActionEvent): Promise<unknown[]> {
  const { face, exclude, expand, q } = options(params);
  const rack = (await readRow<DcimRack>(db, tables.dcim.rack, id))!;
  const height = Number(rack.u_height);
  const numbers = Array.from({ length: height }, (_, i) => (rack.desc_units ? i + 1 : height - i));
  const units = new Map<number, { id: number; name: string; face: { value: string; label: string }; device: unknown; occupied: boolean }>(
    numbers.map((u) => [u, { id: u, name: `U${u}`, face: { value: face, label: FACES[face] }, device: null, occupied: false }]),
  );
  const { device: DEVICES, devicetype: TYPES } = tables.dcim;
  const [dc, tc] = [columns(DEVICES, "d"), columns(TYPES, "t")];
  const devices: Array<{ id: string; position: number; u_height: number }> = await db(`${DEVICES.table} as d`).join(`${TYPES.table} as t`, "t.id", dc.device_type)
    .where(dc.rack, id).where(dc.position, ">", 0).where(tc.u_height, ">", 0)
    .where((w) => w.where(dc.face, face).orWhere(tc.is_full_depth, true))
    .modify((w) => { if (exclude) w.whereNot("d.id", exclude.toLowerCase()); })
    .orderBy(dc.position).select({ ...fields(DEVICES, ["id", "position"], "d"), ...fields(TYPES, ["u_height"], "t") });
  const shown = await read(devices.map((d) => ({ model: "dcim.device", id: d.id })), "nested");
  // Expanded, a device fills each of its units; otherwise its lowest unit stands for the rest.
  devices.forEach((d, i) => {
    for (let u = Number(d.position); u < Number(d.position) + Number(d.u_height); u++) {
      const unit = units.get(u);
      if (!unit) continue;
      if (!expand && u > Number(d.position)) {
        units.delete(u);
        continue;
      }
      unit.occupied = true;
      unit.device = shown[i];
    }
  });
  const all = [...units.values()];
  return q ? all.filter((u) => String(u.id).includes(q) || u.name.includes(q)) : all;
}

/** A rack's location: in its site, of a type that holds racks (Nautobot's Rack.clean). */
export async function beforeSave({ db, after }: SaveEvent<DcimRack>): Promise<void> {
  await checkLocations(db, "dcim.rack", "Racks", [after]);
}

export const actions = { elevation };
