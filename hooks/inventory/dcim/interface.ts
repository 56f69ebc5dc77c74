// Nautobot's Interface.clean for what exists so far (LAG, parent and bridge interfaces of the
// same device; virtual interfaces in no LAG; only virtual interfaces have parents; an untagged
// VLAN of the device's site or global), the VLAN rules of its serializer (interface-vlans.ts),
// and its MAC address field (mac.ts).
import { Refusal, type ActionEvent, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";

import { HttpError } from "../../../runtime/errors.js";
import { trace } from "../lib/cabling.js";
import { carries, checkTaggedVlans, checkUntaggedMode, vlanName } from "../lib/interface-vlans.js";
import { normalizeMac } from "../lib/mac.js";

export { beforeDelete } from "./cable-end.js";
export { clearTaggedVlans as afterSave } from "../lib/interface-vlans.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, unknown>;

export async function beforeSave(event: SaveEvent): Promise<void> {
  const { db, id, values, before } = event;
  normalizeMac(values);
  const current: Row = before ?? {};
  const row: Row = { ...current, ...values };
  const other = async (column: string): Promise<Row | undefined> => (row[column] ? db(tables.dcim.interface.table).where({ id: row[column] as string }).first() : undefined);
  const deviceName = async (deviceId: unknown) => (await db(tables.dcim.device.table).where({ id: deviceId as string }).first())?.name ?? "";
  const siteOf = async (deviceId: unknown): Promise<string | null> => (await db(tables.dcim.device.table).where({ id: deviceId as string }).first("site_id"))?.site_id ?? null;

  await checkTaggedVlans(event, current, await siteOf(id === null ? row.device_id : current.device_id), "device");
  checkUntaggedMode(row);

  const lag = await other("lag_id");
  if (lag) {
    if (id !== null && lag.id === id) throw new Refusal({ lag: "A LAG interface cannot be its own parent." });
    if (lag.device_id !== row.device_id) throw new Refusal({ lag: `The selected LAG interface (${lag.name}) belongs to a different device (${await deviceName(lag.device_id)}).` });
    if (row.type === "virtual") throw new Refusal({ lag: "Virtual interfaces cannot have a parent LAG interface." });
  }
  const parent = await other("parent_interface_id");
  if (parent) {
    if (id !== null && parent.id === id) throw new Refusal({ parent_interface: "An interface cannot be its own parent." });
    if (row.type !== "virtual") throw new Refusal({ parent_interface: "Only virtual interfaces may be assigned to a parent interface." });
    if (parent.type === "virtual") throw new Refusal({ parent_interface: "Virtual interfaces may not be parents of other interfaces." });
    if (parent.device_id !== row.device_id) {
      throw new Refusal({ parent_interface: `The selected parent interface (${parent.name}) belongs to a different device (${await deviceName(parent.device_id)}).` });
    }
  }
  if (row.untagged_vlan_id) {
    const vlan: Row = await db(tables.ipam.vlan.table).where({ id: row.untagged_vlan_id as string }).first();
    if (vlan.site_id !== null && vlan.site_id !== (await siteOf(row.device_id))) {
      throw new Refusal({ untagged_vlan: `The untagged VLAN (${vlanName(vlan)}) must belong to the same site as the interface's parent device, or it must be global.` });
    }
  }
  const bridge = await other("bridge_id");
  if (bridge) {
    if (id !== null && bridge.id === id) throw new Refusal({ bridge: "An interface cannot be bridged to itself." });
    if (bridge.device_id !== row.device_id) throw new Refusal({ bridge: `The selected bridge interface (${bridge.name}) belongs to a different device (${await deviceName(bridge.device_id)}).` });
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
  const peer: Row | undefined = await db(`${tables.dcim.interface.table} as i`).join(`${tables.dcim.device.table} as d`, "d.id", "i.device_id")
    .where({ "d.name": device, "i.name": name }).first("i.connected_endpoint_type", "i.connected_endpoint_id");
  if (!peer) throw new HttpError(404, "Not found.", "not_found");
  if (peer.connected_endpoint_type !== "dcim.interface") return undefined;
  const local: Row = await db(tables.dcim.interface.table).where({ id: peer.connected_endpoint_id }).first("device_id");
  const [shown] = await read([{ model: "dcim.device", id: String(local.device_id) }], "full");
  return shown;
}

export const actions = { trace, "connected-device": connectedDevice };

/**
 * Nautobot's Device.vc_interfaces for the devices `devices` selects: their own interfaces and,
 * where one masters a virtual chassis, the members' interfaces that are not management-only.
 */
function ofDevices({ alias }: MethodQuery, devices: string): string {
  const members = `SELECT m.id FROM ${tables.dcim.device.table} m JOIN ${tables.dcim.virtualchassis.table} vc ON vc.id = m.virtual_chassis_id WHERE vc.master_id IN (${devices})`;
  return `(${alias}.device_id IN (${devices}) OR (NOT ${alias}.mgmt_only AND ${alias}.device_id IN (${members})))`;
}

export const filters = {
  device: (q: MethodQuery) => ofDevices(q, `SELECT d.id FROM ${tables.dcim.device.table} d WHERE d.name = ANY(${q.values})`),
  device_id: (q: MethodQuery) => ofDevices(q, `SELECT unnest(${q.values})`),
  vlan_id: (q: MethodQuery) => carries(q, `SELECT unnest(${q.values})`),
  vlan: (q: MethodQuery) => carries(q, `SELECT v.id FROM ${tables.ipam.vlan.table} v WHERE v.vid = ANY(${q.values})`),
};
