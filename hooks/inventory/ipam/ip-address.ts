// Nautobot's IPAddress.clean() and its filter set's methods: the assignment to an interface
// names one existing object (both halves or neither), an address stays on the device or
// virtual machine it is primary for, unique space is enforced where the VRF asks for it.
import { parseAddress, withLength, columns, fields, readRow, Refusal, type HookDb, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { vrfLabel, vrfScopeFilters } from "../lib/vrf-scope.js";
import { ASSIGNABLE, hostOf, onOwners } from "../lib/addressing.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamIPAddress } from "../../../generated/inventory/rows.js";

type Row = Record<string, unknown>;

const IPS = tables.ipam.ipaddress;

/** Roles whose addresses may repeat in a unique space (IPADDRESS_ROLES_NONUNIQUE). */
const NONUNIQUE = new Set(["anycast", "vip", "vrrp", "hsrp", "glbp", "carp"]);

const family = (address: unknown) => parseAddress(String(address)).family;

/** An address as it will be stored. */
type Address = SaveEvent<IpamIPAddress>["after"];

/**
 * IPAddress.clean() for a set of addresses at once (a bulk create, an allocation batch, or one
 * save): the duplicate check of every address whose VRF enforces unique space is one statement
 * for the whole set, which is also checked against itself; each address's other rules run in
 * the order Nautobot checks them, so a set of one is refused as a single save always was.
 */
export async function beforeSaveSet(events: Array<SaveEvent<IpamIPAddress>>): Promise<void> {
  for (const { db, after: ip, values } of events) {
    const { assigned_object_type: type, assigned_object_id: objectId } = ip;
    if (!type !== !objectId) throw new Refusal({ __all__: "assigned_object_type and assigned_object_id must either both be null or both be non-null" });
    if (typeof values.address === "string" && values.address.endsWith("/0")) throw new Refusal({ address: "Cannot create IP address with /0 mask." });
    if (type && objectId && !(await db(ASSIGNABLE[type].names.table).where({ id: objectId }).first("id"))) {
      throw new Refusal({ assigned_object_id: `No ${type} with ID ${objectId} exists.` });
    }
  }
  await checkUnique(events);
  for (const { db, id, after: ip, values } of events) {
    if (id !== null) await checkStillPrimary(db, id, ip);
    if (ip.status === "slaac" && family(ip.address) !== 6) throw new Refusal({ status: "Only IPv6 addresses can be assigned SLAAC status" });
    if (typeof values.dns_name === "string") values.dns_name = values.dns_name.toLowerCase();
  }
}

/**
 * Nautobot's duplicate check, made where the address's VRF enforces unique space: against the
 * stored addresses (one statement for the set) and against those before it in the set.
 */
async function checkUnique(events: Array<SaveEvent<IpamIPAddress>>): Promise<void> {
  const asked = events.flatMap(({ id, after: ip }, n) =>
    (ip.vrf && !NONUNIQUE.has(String(ip.role ?? "")) ? [{ n, vrf: String(ip.vrf), address: String(ip.address), id }] : []));
  if (!asked.length) return;
  const { db } = events[0];
  const { vrf: vrfs } = tables.ipam;
  const [t, v] = [columns(IPS, "t"), columns(vrfs, "v")];
  const { rows } = await db.raw(
    `SELECT e.n, e.vrf::text AS vrf, v.${vrfs.columns.name} AS name, v.${vrfs.columns.rd} AS rd, ${hostOf("e.address::inet")}::text AS host, ` +
    "e.address::inet::text AS address, " +
    `(SELECT ${t.address}::text FROM ${IPS.table} t WHERE ${t.vrf} = v.id AND ${hostOf(t.address)} = ${hostOf("e.address::inet")} ` +
    `AND t.id IS DISTINCT FROM e.id ORDER BY ${t.address} LIMIT 1) AS twin ` +
    `FROM unnest(?::int[], ?::uuid[], ?::text[], ?::uuid[]) AS e(n, vrf, address, id) JOIN ${vrfs.table} v ON v.id = e.vrf ` +
    `WHERE ${v.enforce_unique} ORDER BY e.n`,
    [asked.map((a) => a.n), asked.map((a) => a.vrf), asked.map((a) => a.address), asked.map((a) => a.id)] as unknown as string[][],
  );
  const earlier = new Map<string, string>();
  for (const row of rows as Array<{ vrf: string; name: string; rd: string | null; host: string; address: string; twin: string | null }>) {
    const key = `${row.vrf} ${row.host}`;
    const twin = row.twin ?? earlier.get(key);
    if (twin) throw new Refusal({ address: `Duplicate IP address found in VRF ${vrfLabel(row)}: ${withLength(twin)}` });
    earlier.set(key, row.address);
  }
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
