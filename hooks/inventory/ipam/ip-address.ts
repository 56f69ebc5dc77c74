// Nautobot's IPAddress.clean() and its filter set's methods: the assignment to an interface
// names one existing object (both halves or neither), an address stays on the device or
// virtual machine it is primary for, unique space is enforced where the VRF asks for it.
import { parseAddress, withLength, columns, fields, readRow, Refusal, type HookDb, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { vrfLabel, vrfScopeFilters } from "../lib/vrf-scope.js";
import { ASSIGNABLE, hostOf, onOwners } from "../lib/addressing.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamIPAddress, IpamVRF } from "../../../generated/inventory/rows.js";

type Row = Record<string, unknown>;

const IPS = tables.ipam.ipaddress;

/** Roles whose addresses may repeat in a unique space (IPADDRESS_ROLES_NONUNIQUE). */
const NONUNIQUE = new Set(["anycast", "vip", "vrrp", "hsrp", "glbp", "carp"]);

const HOST = hostOf(IPS.columns.address);

const family = (address: unknown) => parseAddress(String(address)).family;

/** An address as it will be stored. */
type Address = SaveEvent<IpamIPAddress>["after"];

export async function beforeSave({ db, id, values, after: ip }: SaveEvent<IpamIPAddress>): Promise<void> {
  const { assigned_object_type: type, assigned_object_id: objectId } = ip;
  if (!type !== !objectId) throw new Refusal({ __all__: "assigned_object_type and assigned_object_id must either both be null or both be non-null" });
  if (typeof values.address === "string" && values.address.endsWith("/0")) throw new Refusal({ address: "Cannot create IP address with /0 mask." });
  if (type && objectId && !(await db(ASSIGNABLE[type].names.table).where({ id: objectId }).first("id"))) {
    throw new Refusal({ assigned_object_id: `No ${type} with ID ${objectId} exists.` });
  }
  await checkUnique(db, id, ip);
  if (id !== null) await checkStillPrimary(db, id, ip);
  if (ip.status === "slaac" && family(ip.address) !== 6) throw new Refusal({ status: "Only IPv6 addresses can be assigned SLAAC status" });
  if (typeof values.dns_name === "string") values.dns_name = values.dns_name.toLowerCase();
}

/** Nautobot's duplicate check, made where the address's VRF enforces unique space. */
async function checkUnique(db: HookDb, id: SaveEvent["id"], ip: Address): Promise<void> {
  if (!ip.vrf || NONUNIQUE.has(String(ip.role ?? ""))) return;
  const vrf = await readRow<IpamVRF>(db, tables.ipam.vrf, ip.vrf);
  if (!vrf?.enforce_unique) return;
  const a = columns(IPS);
  const twin: Pick<IpamIPAddress, "address"> | undefined = await db(IPS.table).where({ [a.vrf]: ip.vrf }).whereRaw(`${HOST} = ${hostOf("?::inet")}`, [String(ip.address), String(ip.address)])
    .modify((q) => { if (id !== null) q.whereNot({ id }); }).orderBy(a.address).first(fields(IPS, ["address"]));
  if (twin) throw new Refusal({ address: `Duplicate IP address found in VRF ${vrfLabel(vrf)}: ${withLength(twin.address)}` });
}

/** An address that is some device's (or virtual machine's) primary IP must stay assigned to it. */
async function checkStillPrimary(db: HookDb, id: string | number, ip: Address): Promise<void> {
  for (const [type, a] of Object.entries(ASSIGNABLE)) {
    const o = columns(a.ownerNames);
    const owner: { id: string; name: string } | undefined = await db(a.ownerNames.table).where({ [o.primary_ip4]: id }).orWhere({ [o.primary_ip6]: id })
      .first(fields(a.ownerNames, ["id", "name"]));
    if (!owner) continue;
    const assigned = ip.assigned_object_type === type && ip.assigned_object_id ? await readRow<Row>(db, a.names, ip.assigned_object_id) : undefined;
    if (assigned?.[a.owner] !== owner.id) throw new Refusal({ [a.key]: `IP address is primary for ${a.noun} ${owner.name} but not assigned to it!` });
  }
}

/** Addresses on the given interfaces of a type (`ids`: an SQL array of their ids). */
const onInterfaces = (type: string) => ({ alias, ids }: MethodQuery) => {
  const a = columns(IPS, alias);
  return `(${a.assigned_object_type} = '${type}' AND ${a.assigned_object_id} = ANY(${ids}))`;
};

const DEVICES = "dcim.interface";
const MACHINES = "virtualization.vminterface";

export const filters = {
  ...vrfScopeFilters,
  interface: onInterfaces(DEVICES),
  interface_id: onInterfaces(DEVICES),
  device: ({ alias, values }: MethodQuery) => onOwners(alias, DEVICES, `SELECT id FROM ${tables.dcim.device.table} WHERE ${tables.dcim.device.columns.name} = ANY(${values})`),
  device_id: ({ alias, values }: MethodQuery) => onOwners(alias, DEVICES, `SELECT unnest(${values})`),
  vminterface: onInterfaces(MACHINES),
  vminterface_id: onInterfaces(MACHINES),
  virtual_machine: ({ alias, values }: MethodQuery) =>
    onOwners(alias, MACHINES, `SELECT id FROM ${tables.virtualization.virtualmachine.table} WHERE ${tables.virtualization.virtualmachine.columns.name} = ANY(${values})`),
  virtual_machine_id: ({ alias, values }: MethodQuery) => onOwners(alias, MACHINES, `SELECT unnest(${values})`),
};
