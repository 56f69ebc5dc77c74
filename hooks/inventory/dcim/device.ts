// Nautobot's Device rules (DeviceSerializer.validate, Device.clean, Device.validate_unique),
// checked in its order against the device as it will be saved. The rack row is locked first,
// so two writers placing devices in one rack take turns and cannot both claim a unit. A new
// device gets the components its type's templates describe, in the same transaction.
import {
  parseAddress, withLength, columns, fields, readRow, Refusal, type HookDb, type MethodQuery, type ModelNames, type ReadRow, type SaveEvent, type SavedEvent,
} from "../../../runtime/hooks.js";
import { checkLocations, locationWithin } from "../lib/located.js";
import { onOwnInterface } from "../lib/addressing.js";
import { checkLocalContext, configContextSql } from "../lib/context-data.js";
import { macDigits } from "../lib/mac.js";
import { tables } from "../../../generated/inventory/tables.js";
import type {
  DcimDevice, DcimDeviceType, DcimLocation, DcimManufacturer, DcimRack, DcimSite, IpamIPAddress, VirtualizationCluster,
} from "../../../generated/inventory/rows.js";

/** A device as it will be stored. */
type Device = SaveEvent<DcimDevice>["after"];

const { device: DEVICES, devicetype: TYPES } = tables.dcim;
const D = columns(DEVICES);

export async function beforeSave({ db, id, after: d }: SaveEvent<DcimDevice>): Promise<void> {
  await checkLocations(db, "dcim.device", "Devices", [d]);
  await checkLocalContext(db, d);
  const rack = await readRow<DcimRack>(db, tables.dcim.rack, d.rack, true);
  const type = await readRow<DcimDeviceType>(db, TYPES, d.device_type);
  const maker = type && (await readRow<DcimManufacturer>(db, tables.dcim.manufacturer, type.manufacturer));
  const typeName = type ? `${maker?.name ?? ""} ${type.model}` : "";

  if (d.rack && d.position && d.face) {
    const taken = await db(DEVICES.table).where({ [D.rack]: d.rack, [D.position]: d.position, [D.face]: d.face })
      .modify((q) => { if (id !== null) q.whereNot({ id }); }).first("id");
    if (taken) throw new Refusal({ non_field_errors: "The position and face is already occupied on this rack. The fields rack, position, face must make a unique set." });
  }
  if (rack && rack.site !== d.site) {
    const site = await readRow<DcimSite>(db, tables.dcim.site, d.site);
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
    const ip = await readRow<IpamIPAddress>(db, tables.ipam.ipaddress, d[field]);
    if (!ip) continue;
    if (parseAddress(String(ip.address)).family !== family) throw new Refusal({ [field]: `${withLength(String(ip.address))} is not an IPv${family} address.` });
    if (!(await onOwnInterface(db, "dcim.interface", id, ip))) throw new Refusal({ [field]: `The specified IP address (${withLength(String(ip.address))}) is not assigned to this device.` });
  }
  await checkCluster(db, d);
  if (d.device_redundancy_group_priority != null && !d.device_redundancy_group) {
    throw new Refusal({ device_redundancy_group_priority: "Must assign a redundancy group when defining a redundancy group priority." });
  }
  if (d.name && !d.tenant) {
    const twin = await db(DEVICES.table).where({ [D.name]: d.name, [D.site]: d.site }).whereNull(D.tenant).modify((q) => { if (id !== null) q.whereNot({ id }); }).first("id");
    if (twin) throw new Refusal({ name: "A device with this name already exists." });
  }
}

/** A device's cluster is at the device's site, and at its location or one of that location's ancestors, when it has them. */
async function checkCluster(db: HookDb, d: Device): Promise<void> {
  const cluster = await readRow<VirtualizationCluster>(db, tables.virtualization.cluster, d.cluster);
  if (!cluster) return;
  if (cluster.site && cluster.site !== d.site) {
    throw new Refusal({ cluster: `The assigned cluster belongs to a different site (${(await readRow<DcimSite>(db, tables.dcim.site, cluster.site))?.name ?? ""})` });
  }
  if (cluster.location && d.location) {
    if (!(await locationWithin(db, d.location, cluster.location))) {
      const location = await readRow<DcimLocation>(db, tables.dcim.location, d.location);
      throw new Refusal({ cluster: `The assigned cluster belongs to a location that does not include ${location?.name ?? ""}.` });
    }
  }
}

/** InterfaceTemplate.instantiate's status: active where it applies to interfaces, else the first that does (by name). */
const INTERFACE_STATUS = (() => {
  const { status, contenttype } = tables.extras;
  const link = status.links.content_types;
  const [s, r] = [columns(status, "s"), columns(contenttype, "r")];
  return `(SELECT ${s.slug} FROM ${status.table} s JOIN ${link.table} j ON j.${link.source} = s.id ` +
    `JOIN ${contenttype.table} r ON r.id = j.${link.target} WHERE ${r.app_label} = 'dcim' AND ${r.model} = 'interface' ORDER BY ${s.slug} <> 'active', ${s.name} LIMIT 1)`;
})();

/** A kind of component and the template it is made from: the names of both, and the fields copied. */
interface Component {
  names: ModelNames;
  from: ModelNames;
  fields: string[];
  /** A link to a sibling component, made from the link between their templates (matched by name). */
  link?: { field: string; names: ModelNames; template: ModelNames };
  /** The SQL of the status given, for a component that has one. */
  status?: string;
}

/**
 * Components from templates, one INSERT … SELECT per kind (Device.save's bulk_create):
 * each template's fields, with power outlets and front ports linked to the device's own
 * power and rear ports made from the templates they point at (matched by name).
 */
const COMPONENTS: Component[] = [
  { names: tables.dcim.consoleport, from: tables.dcim.consoleporttemplate, fields: ["name", "label", "type", "description"] },
  { names: tables.dcim.consoleserverport, from: tables.dcim.consoleserverporttemplate, fields: ["name", "label", "type", "description"] },
  { names: tables.dcim.powerport, from: tables.dcim.powerporttemplate, fields: ["name", "label", "type", "maximum_draw", "allocated_draw", "description"] },
  {
    names: tables.dcim.poweroutlet, from: tables.dcim.poweroutlettemplate, fields: ["name", "label", "type", "feed_leg", "description"],
    link: { field: "power_port", names: tables.dcim.powerport, template: tables.dcim.powerporttemplate },
  },
  { names: tables.dcim.interface, from: tables.dcim.interfacetemplate, fields: ["name", "label", "type", "mgmt_only", "description"], status: INTERFACE_STATUS },
  { names: tables.dcim.rearport, from: tables.dcim.rearporttemplate, fields: ["name", "label", "type", "positions", "description"] },
  {
    names: tables.dcim.frontport, from: tables.dcim.frontporttemplate, fields: ["name", "label", "type", "rear_port_position", "description"],
    link: { field: "rear_port", names: tables.dcim.rearport, template: tables.dcim.rearporttemplate },
  },
  { names: tables.dcim.devicebay, from: tables.dcim.devicebaytemplate, fields: ["name", "label", "description"] },
];

export async function afterSave({ db, id, values, created }: SavedEvent<DcimDevice>): Promise<void> {
  if (!created) return;
  for (const c of COMPONENTS) {
    const [made, from] = [c.names.columns, c.from.columns];
    const cols = c.fields.map((f) => `"${made[f]}"`).join(", ");
    const picked = c.fields.map((f) => `t."${from[f]}"`).join(", ");
    const link = c.link
      ? {
        col: `, "${made[c.link.field]}"`,
        sql: `, (SELECT p.id FROM "${c.link.names.table}" p JOIN "${c.link.template.table}" pt ON pt."${c.link.template.columns.name}" = p."${c.link.names.columns.name}" ` +
          `WHERE p."${c.link.names.columns.device}" = ? AND pt.id = t."${from[c.link.field]}")`,
        bind: [id],
      }
      : { col: "", sql: "", bind: [] };
    const status = c.status ? { col: `, "${made.status}"`, sql: `, ${c.status}` } : { col: "", sql: "" };
    await db.raw(`INSERT INTO "${c.names.table}" ("${made.device}", ${cols}${link.col}${status.col}) SELECT ?, ${picked}${link.sql}${status.sql} ` +
      `FROM "${c.from.table}" t WHERE t."${from.device_type}" = ? ORDER BY t."${from.name}"`,
    [id, ...link.bind, values.device_type!]);
  }
}

/**
 * Whether units position … position + height − 1 are inside the rack and free on the face the
 * device uses (both faces for a full-depth type), as Rack.get_available_units decides.
 */
async function unitsFree(db: HookDb, rack: DcimRack, type: DcimDeviceType, d: Device, id: SaveEvent["id"]): Promise<boolean> {
  const height = Number(type.u_height);
  const bottom = Number(d.position);
  if (bottom + height - 1 > Number(rack.u_height)) return false;
  const o = columns(DEVICES, "o");
  const others = await db(`${DEVICES.table} as o`).join(`${TYPES.table} as t`, "t.id", o.device_type)
    .where(o.rack, rack.id).where(o.position, ">=", 1).modify((q) => { if (id !== null) q.whereNot("o.id", id); })
    .select({ ...fields(DEVICES, ["position", "face"], "o"), ...fields(TYPES, ["u_height", "is_full_depth"], "t") });
  const face = type.is_full_depth ? null : d.face;
  return !others.some((o: { position: number; face: string; u_height: number; is_full_depth: boolean }) => {
    if (face !== null && o.face !== face && !o.is_full_depth) return false;
    const top = Number(o.position) + Number(o.u_height) - 1;
    return Number(o.position) <= bottom + height - 1 && top >= bottom;
  });
}

/** A device's config context, with the device's own assignments (get_for_object). */
export const readValues = {
  config_context: ({ alias, rows }: ReadRow) => {
    const d = columns(DEVICES, alias);
    return configContextSql({
      site: d.site, location: d.location, role: d.device_role, deviceType: d.device_type,
      platform: d.platform, cluster: d.cluster, tenant: d.tenant, id: `${alias}.id`, objectType: "dcim.device",
    }, d.local_context_data, rows);
  },
};


/** Nautobot's DeviceFilterSet methods. */
export const filters = {
  // Devices with both front and rear ports (or, false, lacking either).
  pass_through_ports: ({ alias, value }: MethodQuery) => {
    const { frontport, rearport } = tables.dcim;
    const both = `(EXISTS (SELECT 1 FROM ${frontport.table} f WHERE ${columns(frontport, "f").device} = ${alias}.id) ` +
      `AND EXISTS (SELECT 1 FROM ${rearport.table} r WHERE ${columns(rearport, "r").device} = ${alias}.id))`;
    return value ? both : `NOT ${both}`;
  },
  is_full_depth: ({ alias, value }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${TYPES.table} t WHERE t.id = ${columns(DEVICES, alias).device_type} AND ${columns(TYPES, "t").is_full_depth} = ${value ? "true" : "false"})`,
  // Devices with an interface of one of the addresses, however each is written.
  mac_address: ({ alias, values }: MethodQuery) => {
    const i = columns(tables.dcim.interface, "i");
    return `EXISTS (SELECT 1 FROM ${tables.dcim.interface.table} i WHERE ${i.device} = ${alias}.id AND ${macDigits(i.mac_address)} = ANY(SELECT ${macDigits("v")} FROM unnest(${values}) v))`;
  },
};
