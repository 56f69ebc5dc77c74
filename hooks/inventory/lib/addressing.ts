// Where IP addresses sit: in host order whatever their masks (the spec's host index), and on
// interfaces of devices or virtual machines (IPADDRESS_ASSIGNMENT_MODELS). Shared by the IP
// address, prefix, device and virtual machine hooks.
import type { HookDb } from "../../../runtime/hooks.js";
import { literal } from "../../../runtime/query/sql.js";
import { tables } from "../../../generated/inventory/tables.js";

/** An address column as a bare host: the expression the IP address spec's host index is built on. */
export const hostOf = (column: string): string => `set_masklen(${column}, CASE WHEN family(${column}) = 4 THEN 32 ELSE 128 END)`;

/** A model an address may be assigned to: its table, and what owns its rows. */
export interface Assignable {
  table: string;
  ownerTable: string;
  /** The owner's column on the interface. */
  owner: string;
  /** The field Nautobot's primary-IP refusal is keyed by, and the owner as its text names it. */
  key: string;
  noun: string;
  /** The ids of the interfaces whose addresses count as the owners' (`owners`: a sub-select of owner ids). */
  interfacesOf(owners: string): string;
}

export const ASSIGNABLE: Record<string, Assignable> = {
  // Device.vc_interfaces: a virtual chassis master also has its members' interfaces, management-only ones left out.
  "dcim.interface": {
    table: tables.dcim.interface.table, ownerTable: tables.dcim.device.table, owner: "device_id", key: "interface", noun: "device",
    interfacesOf: (devices) => `SELECT i.id FROM ${tables.dcim.interface.table} i JOIN ${tables.dcim.device.table} d ON d.id = i.device_id WHERE d.id IN (${devices}) ` +
      `OR (NOT i.mgmt_only AND d.virtual_chassis_id IN (SELECT vc.id FROM ${tables.dcim.virtualchassis.table} vc WHERE vc.master_id IN (${devices})))`,
  },
  "virtualization.vminterface": {
    table: tables.virtualization.vminterface.table, ownerTable: tables.virtualization.virtualmachine.table, owner: "virtual_machine_id", key: "vminterface", noun: "virtual machine",
    interfacesOf: (machines) => `SELECT i.id FROM ${tables.virtualization.vminterface.table} i WHERE i.virtual_machine_id IN (${machines})`,
  },
};

/** Addresses (the row aliased `alias`) on the interfaces of the owners a sub-select yields. */
export const onOwners = (alias: string, type: string, owners: string): string =>
  `(${alias}.assigned_object_type = '${type}' AND ${alias}.assigned_object_id IN (${ASSIGNABLE[type].interfacesOf(owners)}))`;

/**
 * Whether an address may be its owner's primary IP (Device.clean, VirtualMachine.clean): it,
 * or the inside address it is the NAT of, is on one of the owner's interfaces. A new owner has none.
 */
export async function onOwnInterface(db: HookDb, type: string, ownerId: string | number | null, ip: Record<string, unknown>): Promise<boolean> {
  if (ownerId === null) return false;
  const ids = [ip.id, ip.nat_inside_id].filter((x) => x != null).map(String);
  const { rows } = await db.raw(`SELECT 1 FROM ${tables.ipam.ipaddress.table} a WHERE a.id = ANY(?::uuid[]) AND ${onOwners("a", type, `SELECT ${literal(String(ownerId))}::uuid`)}`, [ids]);
  return rows.length > 0;
}
