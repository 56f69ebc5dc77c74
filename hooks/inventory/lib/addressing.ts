// Where IP addresses sit: in host order whatever their masks (the spec's host index), and on
// interfaces of devices or virtual machines (IPADDRESS_ASSIGNMENT_MODELS). Shared by the IP
// address, prefix, device and virtual machine hooks.
import { columns, type HookDb, type ModelNames, literal } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamIPAddress } from "../../../generated/inventory/rows.js";

/** An address column as a bare host: the expression the IP address spec's host index is built on. */
export const hostOf = (column: string): string => `set_masklen(${column}, CASE WHEN family(${column}) = 4 THEN 32 ELSE 128 END)`;

/** A model an address may be assigned to, and the model that owns its rows. */
export interface Assignable {
  names: ModelNames;
  ownerNames: ModelNames;
  /** The interface's field naming its owner. */
  owner: string;
  /** The field Nautobot's primary-IP refusal is keyed by, and the owner as its text names it. */
  key: string;
  noun: string;
  /** The ids of the interfaces whose addresses count as the owners' (`owners`: a sub-select of owner ids). */
  interfacesOf(owners: string): string;
}

const { device: DEVICES, interface: INTERFACES, virtualchassis: CHASSIS } = tables.dcim;
const { virtualmachine: MACHINES, vminterface: VM_INTERFACES } = tables.virtualization;

export const ASSIGNABLE: Record<string, Assignable> = {
  // Device.vc_interfaces: a virtual chassis master also has its members' interfaces, management-only ones left out.
  "dcim.interface": {
    names: INTERFACES, ownerNames: DEVICES, owner: "device", key: "interface", noun: "device",
    interfacesOf: (devices) => {
      const [i, d, vc] = [columns(INTERFACES, "i"), columns(DEVICES, "d"), columns(CHASSIS, "vc")];
      return `SELECT i.id FROM ${INTERFACES.table} i JOIN ${DEVICES.table} d ON d.id = ${i.device} WHERE d.id IN (${devices}) ` +
        `OR (NOT ${i.mgmt_only} AND ${d.virtual_chassis} IN (SELECT vc.id FROM ${CHASSIS.table} vc WHERE ${vc.master} IN (${devices})))`;
    },
  },
  "virtualization.vminterface": {
    names: VM_INTERFACES, ownerNames: MACHINES, owner: "virtual_machine", key: "vminterface", noun: "virtual machine",
    interfacesOf: (machines) => `SELECT i.id FROM ${VM_INTERFACES.table} i WHERE ${columns(VM_INTERFACES, "i").virtual_machine} IN (${machines})`,
  },
};

/** Addresses (the row aliased `alias`) on the interfaces of the owners a sub-select yields. */
export const onOwners = (alias: string, type: string, owners: string): string => {
  const a = columns(tables.ipam.ipaddress, alias);
  return `(${a.assigned_object_type} = '${type}' AND ${a.assigned_object_id} IN (${ASSIGNABLE[type].interfacesOf(owners)}))`;
};

/**
 * Whether an address may be its owner's primary IP (Device.clean, VirtualMachine.clean): it,
 * or the inside address it is the NAT of, is on one of the owner's interfaces. A new owner has none.
 */
export async function onOwnInterface(db: HookDb, type: string, ownerId: string | number | null, ip: Pick<IpamIPAddress, "id" | "nat_inside">): Promise<boolean> {
  if (ownerId === null) return false;
  const ids = [ip.id, ip.nat_inside].filter((x) => x != null).map(String);
  const { rows } = await db.raw(`SELECT 1 FROM ${tables.ipam.ipaddress.table} a WHERE a.id = ANY(?::uuid[]) AND ${onOwners("a", type, `SELECT ${literal(String(ownerId))}::uuid`)}`, [ids]);
  return rows.length > 0;
}
