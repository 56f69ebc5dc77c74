// Nautobot's Device rules (DeviceSerializer.validate, Device.clean, Device.validate_unique),
// checked in its order against the device as it will be saved. The rack row is locked first,
// so two writers placing devices in one rack take turns and cannot both claim a unit. A new
// device gets the components its type's templates describe, in the same transaction.
import { parseAddress, withLength } from "../../../runtime/text/addresses.js";
import { Refusal, type HookDb, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation, locationWithin } from "../lib/located.js";
import { onOwnInterface } from "../lib/addressing.js";
import { checkLocalContext, configContextSql } from "../lib/context-data.js";
import { macDigits } from "../lib/mac.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, unknown>;

async function one(db: HookDb, table: string, id: unknown): Promise<Row | undefined> {
  return id == null ? undefined : db(table).where({ id }).first();
}

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const d: Row = { ...current, ...values };
  await checkLocation(db, "dcim.device", "Devices", d);
  await checkLocalContext(db, current, values);
  const rack = d.rack_id ? await db(tables.dcim.rack.table).where({ id: d.rack_id }).forUpdate().first() : undefined;
  const type = await one(db, tables.dcim.devicetype.table, d.device_type_id);
  const maker = type && (await one(db, tables.dcim.manufacturer.table, type.manufacturer_id));
  const typeName = type ? `${maker?.name ?? ""} ${type.model}` : "";

  if (d.rack_id && d.position && d.face) {
    const taken = await db(tables.dcim.device.table).where({ rack_id: d.rack_id, position: d.position, face: d.face }).modify((q) => { if (id !== null) q.whereNot({ id }); }).first();
    if (taken) throw new Refusal({ non_field_errors: "The position and face is already occupied on this rack. The fields rack, position, face must make a unique set." });
  }
  if (rack && rack.site_id !== d.site_id) {
    const site = await one(db, tables.dcim.site.table, d.site_id);
    throw new Refusal({ rack: `Rack ${rack.facility_id ? `${rack.name} (${rack.facility_id})` : rack.name} does not belong to site ${site?.name ?? ""}.` });
  }
  if (!rack) {
    if (d.face) throw new Refusal({ face: "Cannot select a rack face without assigning a rack." });
    if (d.position) throw new Refusal({ position: "Cannot select a rack position without assigning a rack." });
  }
  if (d.position && !d.face) throw new Refusal({ face: "Must specify rack face when defining rack position." });
  if (d.position && type && Number(type.u_height) === 0) throw new Refusal({ position: `A U0 device type (${typeName}) cannot be assigned to a rack position.` });
  if (rack && type) {
    if (type.subdevice_role === "child" && d.face) {
      throw new Refusal({ face: "Child device types cannot be assigned to a rack face. This is an attribute of the parent device." });
    }
    if (type.subdevice_role === "child" && d.position) {
      throw new Refusal({ position: "Child device types cannot be assigned to a rack position. This is an attribute of the parent device." });
    }
    if (d.position && !(await unitsFree(db, rack, type, d, id))) {
      throw new Refusal({ position: `U${d.position} is already occupied or does not have sufficient space to accommodate this device type: ${typeName} (${type.u_height}U)` });
    }
  }
  for (const [field, family] of [["primary_ip4", 4], ["primary_ip6", 6]] as const) {
    const ip = await one(db, tables.ipam.ipaddress.table, d[`${field}_id`]);
    if (!ip) continue;
    if (parseAddress(String(ip.address)).family !== family) throw new Refusal({ [field]: `${withLength(String(ip.address))} is not an IPv${family} address.` });
    if (!(await onOwnInterface(db, "dcim.interface", id, ip))) throw new Refusal({ [field]: `The specified IP address (${withLength(String(ip.address))}) is not assigned to this device.` });
  }
  await checkCluster(db, d);
  if (d.device_redundancy_group_priority != null && !d.device_redundancy_group_id) {
    throw new Refusal({ device_redundancy_group_priority: "Must assign a redundancy group when defining a redundancy group priority." });
  }
  if (d.name && !d.tenant_id) {
    const twin = await db(tables.dcim.device.table).where({ name: d.name, site_id: d.site_id }).whereNull("tenant_id").modify((q) => { if (id !== null) q.whereNot({ id }); }).first();
    if (twin) throw new Refusal({ name: "A device with this name already exists." });
  }
}

/** A device's cluster is at the device's site, and at its location or one of that location's ancestors, when it has them. */
async function checkCluster(db: HookDb, d: Row): Promise<void> {
  const cluster = await one(db, tables.virtualization.cluster.table, d.cluster_id);
  if (!cluster) return;
  if (cluster.site_id && cluster.site_id !== d.site_id) {
    throw new Refusal({ cluster: `The assigned cluster belongs to a different site (${(await one(db, tables.dcim.site.table, cluster.site_id))?.name ?? ""})` });
  }
  if (cluster.location_id && d.location_id) {
    if (!(await locationWithin(db, d.location_id, cluster.location_id))) {
      const location = await one(db, tables.dcim.location.table, d.location_id);
      throw new Refusal({ cluster: `The assigned cluster belongs to a location that does not include ${location?.name ?? ""}.` });
    }
  }
}

/** InterfaceTemplate.instantiate's status: active where it applies to interfaces, else the first that does (by name). */
const INTERFACE_STATUS = `(SELECT s.slug FROM ${tables.extras.status.table} s JOIN ${tables.extras.status.links.content_types.table} j ON j.source_id = s.id ` +
  `JOIN ${tables.extras.contenttype.table} r ON r.id = j.contenttype_id WHERE r.app_label = 'dcim' AND r.model = 'interface' ORDER BY s.slug <> 'active', s.name LIMIT 1)`;

/**
 * Components from templates, one INSERT … SELECT per kind (Device.save's bulk_create):
 * each template's columns, with power outlets and front ports linked to the device's own
 * power and rear ports made from the templates they point at (matched by name).
 */
const COMPONENTS: Array<{ table: string; from: string; columns: string[]; links?: { column: string; table: string; template: string }; status?: string }> = [
  { table: tables.dcim.consoleport.table, from: tables.dcim.consoleporttemplate.table, columns: ["name", "label", "type", "description"] },
  { table: tables.dcim.consoleserverport.table, from: tables.dcim.consoleserverporttemplate.table, columns: ["name", "label", "type", "description"] },
  { table: tables.dcim.powerport.table, from: tables.dcim.powerporttemplate.table, columns: ["name", "label", "type", "maximum_draw", "allocated_draw", "description"] },
  {
    table: tables.dcim.poweroutlet.table, from: tables.dcim.poweroutlettemplate.table, columns: ["name", "label", "type", "feed_leg", "description"],
    links: { column: "power_port_id", table: tables.dcim.powerport.table, template: tables.dcim.powerporttemplate.table },
  },
  { table: tables.dcim.interface.table, from: tables.dcim.interfacetemplate.table, columns: ["name", "label", "type", "mgmt_only", "description"], status: INTERFACE_STATUS },
  { table: tables.dcim.rearport.table, from: tables.dcim.rearporttemplate.table, columns: ["name", "label", "type", "positions", "description"] },
  {
    table: tables.dcim.frontport.table, from: tables.dcim.frontporttemplate.table, columns: ["name", "label", "type", "rear_port_position", "description"],
    links: { column: "rear_port_id", table: tables.dcim.rearport.table, template: tables.dcim.rearporttemplate.table },
  },
  { table: tables.dcim.devicebay.table, from: tables.dcim.devicebaytemplate.table, columns: ["name", "label", "description"] },
];

export async function afterSave({ db, id, values, created }: SaveEvent & { id: string | number; created: boolean }): Promise<void> {
  if (!created) return;
  for (const c of COMPONENTS) {
    const cols = c.columns.map((x) => `"${x}"`).join(", ");
    const picked = c.columns.map((x) => `t."${x}"`).join(", ");
    const link = c.links
      ? { col: `, "${c.links.column}"`, sql: `, (SELECT p.id FROM "${c.links.table}" p JOIN "${c.links.template}" pt ON pt.name = p.name WHERE p.device_id = ? AND pt.id = t."${c.links.column}")`, bind: [id] }
      : { col: "", sql: "", bind: [] };
    const status = c.status ? { col: `, "status"`, sql: `, ${c.status}` } : { col: "", sql: "" };
    await db.raw(`INSERT INTO "${c.table}" (device_id, ${cols}${link.col}${status.col}) SELECT ?, ${picked}${link.sql}${status.sql} FROM "${c.from}" t WHERE t.device_type_id = ? ORDER BY t.name`,
      [id, ...link.bind, values.device_type_id as string]);
  }
}

/**
 * Whether units position … position + height − 1 are inside the rack and free on the face the
 * device uses (both faces for a full-depth type), as Rack.get_available_units decides.
 */
async function unitsFree(db: HookDb, rack: Row, type: Row, d: Row, id: SaveEvent["id"]): Promise<boolean> {
  const height = Number(type.u_height);
  const bottom = Number(d.position);
  if (bottom + height - 1 > Number(rack.u_height)) return false;
  const others = await db(`${tables.dcim.device.table} as o`).join(`${tables.dcim.devicetype.table} as t`, "t.id", "o.device_type_id")
    .where("o.rack_id", rack.id as string).where("o.position", ">=", 1).modify((q) => { if (id !== null) q.whereNot("o.id", id); })
    .select("o.position", "o.face", "t.u_height", "t.is_full_depth");
  const face = type.is_full_depth ? null : d.face;
  return !others.some((o: Row) => {
    if (face !== null && o.face !== face && !o.is_full_depth) return false;
    const top = Number(o.position) + Number(o.u_height) - 1;
    return Number(o.position) <= bottom + height - 1 && top >= bottom;
  });
}

/** A device's config context, with the device's own assignments (get_for_object). */
export const readValues = {
  config_context: ({ alias }: { alias: string }) => configContextSql({
    site: `${alias}.site_id`, location: `${alias}.location_id`, role: `${alias}.device_role_id`, deviceType: `${alias}.device_type_id`,
    platform: `${alias}.platform_id`, cluster: `${alias}.cluster_id`, tenant: `${alias}.tenant_id`, id: `${alias}.id`, objectType: "dcim.device",
  }, `${alias}.local_context_data`),
};


/** Nautobot's DeviceFilterSet methods. */
export const filters = {
  // Devices with both front and rear ports (or, false, lacking either).
  pass_through_ports: ({ alias, value }: MethodQuery) => {
    const both = `(EXISTS (SELECT 1 FROM ${tables.dcim.frontport.table} f WHERE f.device_id = ${alias}.id) AND EXISTS (SELECT 1 FROM ${tables.dcim.rearport.table} r WHERE r.device_id = ${alias}.id))`;
    return value ? both : `NOT ${both}`;
  },
  is_full_depth: ({ alias, value }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${tables.dcim.devicetype.table} t WHERE t.id = ${alias}.device_type_id AND t.is_full_depth = ${value ? "true" : "false"})`,
  // Devices with an interface of one of the addresses, however each is written.
  mac_address: ({ alias, values }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${tables.dcim.interface.table} i WHERE i.device_id = ${alias}.id AND ${macDigits("i.mac_address")} = ANY(SELECT ${macDigits("v")} FROM unnest(${values}) v))`,
};
