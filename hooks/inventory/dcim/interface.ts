// Nautobot's Interface.clean for what exists so far (LAG, parent and bridge interfaces of the
// same device; virtual interfaces in no LAG; only virtual interfaces have parents; an untagged
// VLAN of the device's site or global), the VLAN rules of its serializer (interface-vlans.ts),
// and its MAC address field (mac.ts).
import { columns, fields, readRow, Refusal, type ActionEvent, type MethodQuery, type SaveEvent, HttpError, notFound } from "../../../runtime/hooks.js";

import { trace } from "../lib/cabling.js";
import { carries, checkTaggedVlans, checkUntaggedMode, vlanName } from "../lib/interface-vlans.js";
import { normalizeMac } from "../lib/mac.js";

export { beforeDelete } from "./cable-end.js";
export { clearTaggedVlans as afterSave } from "../lib/interface-vlans.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimDevice, DcimInterface, IpamVLAN } from "../../../generated/inventory/rows.js";

const { device: DEVICES, interface: INTERFACES, virtualchassis: CHASSIS } = tables.dcim;

export async function beforeSave(event: SaveEvent<DcimInterface>): Promise<void> {
  const { db, id, values, before, after: row } = event;
  normalizeMac(values);
  const other = (field: "lag" | "parent_interface" | "bridge") => readRow<DcimInterface>(db, INTERFACES, row[field]);
  const deviceName = async (deviceId: unknown) => (await readRow<DcimDevice>(db, DEVICES, deviceId))?.name ?? "";
  const siteOf = async (deviceId: unknown): Promise<string | null> => (await readRow<DcimDevice>(db, DEVICES, deviceId))?.site ?? null;

  await checkTaggedVlans(event, await siteOf((before ?? row).device), "device");
  checkUntaggedMode(row);

  const lag = await other("lag");
  if (lag) {
    if (id !== null && lag.id === id) throw new Refusal({ lag: "A LAG interface cannot be its own parent." });
    if (lag.device !== row.device) throw new Refusal({ lag: `The selected LAG interface (${lag.name}) belongs to a different device (${await deviceName(lag.device)}).` });
    if (row.type === "virtual") throw new Refusal({ lag: "Virtual interfaces cannot have a parent LAG interface." });
  }
  const parent = await other("parent_interface");
  if (parent) {
    if (id !== null && parent.id === id) throw new Refusal({ parent_interface: "An interface cannot be its own parent." });
    if (row.type !== "virtual") throw new Refusal({ parent_interface: "Only virtual interfaces may be assigned to a parent interface." });
    if (parent.type === "virtual") throw new Refusal({ parent_interface: "Virtual interfaces may not be parents of other interfaces." });
    if (parent.device !== row.device) {
      throw new Refusal({ parent_interface: `The selected parent interface (${parent.name}) belongs to a different device (${await deviceName(parent.device)}).` });
    }
  }
  if (row.untagged_vlan) {
    const vlan = (await readRow<IpamVLAN>(db, tables.ipam.vlan, row.untagged_vlan))!;
    if (vlan.site !== null && vlan.site !== (await siteOf(row.device))) {
      throw new Refusal({ untagged_vlan: `The untagged VLAN (${vlanName(vlan)}) must belong to the same site as the interface's parent device, or it must be global.` });
    }
  }
  const bridge = await other("bridge");
  if (bridge) {
    if (id !== null && bridge.id === id) throw new Refusal({ bridge: "An interface cannot be bridged to itself." });
    if (bridge.device !== row.device) throw new Refusal({ bridge: `The selected bridge interface (${bridge.name}) belongs to a different device (${await deviceName(bridge.device)}).` });
  }
}

/**
 * Nautobot's connected-device: the device at the far end of a named device's named interface
 * (what a device booting with LLDP alone asks), in full; an empty answer when unconnected.
 */
async function connectedDevice({ db, params, read }: ActionEvent): Promise<unknown> {
  const device = params.get("peer_device")?.at(-1);
  const name = params.get("peer_interface")?.at(-1);
  if (!device || !name) throw new HttpError(400, 'Request must include "peer_device" and "peer_interface" filters.');
  const [i, d] = [columns(INTERFACES, "i"), columns(DEVICES, "d")];
  const peer: Pick<DcimInterface, "connected_endpoint_type" | "connected_endpoint_id"> | undefined = await db(`${INTERFACES.table} as i`)
    .join(`${DEVICES.table} as d`, "d.id", i.device).where({ [d.name]: device, [i.name]: name })
    .first(fields(INTERFACES, ["connected_endpoint_type", "connected_endpoint_id"], "i"));
  if (!peer) throw notFound();
  if (peer.connected_endpoint_type !== "dcim.interface") return undefined;
  const local: Pick<DcimInterface, "device"> = await db(INTERFACES.table).where({ id: peer.connected_endpoint_id }).first(fields(INTERFACES, ["device"]));
  const [shown] = await read([{ model: "dcim.device", id: String(local.device) }], "full");
  return shown;
}

export const actions = { trace, "connected-device": connectedDevice };

/**
 * Nautobot's Device.vc_interfaces for the devices `devices` selects: their own interfaces and,
 * where one masters a virtual chassis, the members' interfaces that are not management-only.
 */
function ofDevices({ alias }: MethodQuery, devices: string): string {
  const [m, vc, i] = [columns(DEVICES, "m"), columns(CHASSIS, "vc"), columns(INTERFACES, alias)];
  const members = `SELECT m.id FROM ${DEVICES.table} m JOIN ${CHASSIS.table} vc ON vc.id = ${m.virtual_chassis} WHERE ${vc.master} IN (${devices})`;
  return `(${i.device} IN (${devices}) OR (NOT ${i.mgmt_only} AND ${i.device} IN (${members})))`;
}

export const filters = {
  device: (q: MethodQuery) => ofDevices(q, `SELECT d.id FROM ${DEVICES.table} d WHERE ${columns(DEVICES, "d").name} = ANY(${q.values})`),
  device_id: (q: MethodQuery) => ofDevices(q, `SELECT unnest(${q.values})`),
  vlan_id: (q: MethodQuery) => carries(q, `SELECT unnest(${q.values})`),
  vlan: (q: MethodQuery) => carries(q, `SELECT v.id FROM ${tables.ipam.vlan.table} v WHERE ${columns(tables.ipam.vlan, "v").vid} = ANY(${q.values})`),
};
