// Nautobot's Device rules (DeviceSerializer.validate, Device.clean, Device.validate_unique),
// checked in its order against the device as it will be saved. The rack row is locked first,
// so two writers placing devices in one rack take turns and cannot both claim a unit.
import { Refusal, type HookDb, type SaveEvent } from "../../../runtime/hooks.js";

type Row = Record<string, unknown>;

async function one(db: HookDb, table: string, id: unknown): Promise<Row | undefined> {
  return id == null ? undefined : db(table).where({ id }).first();
}

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  const current: Row = id === null ? {} : (await db("dcim_device").where({ id }).first()) ?? {};
  const d: Row = { ...current, ...values };
  const rack = d.rack_id ? await db("dcim_rack").where({ id: d.rack_id }).forUpdate().first() : undefined;
  const type = await one(db, "dcim_devicetype", d.device_type_id);
  const maker = type && (await one(db, "dcim_manufacturer", type.manufacturer_id));
  const typeName = type ? `${maker?.name ?? ""} ${type.model}` : "";

  if (d.rack_id && d.position && d.face) {
    const taken = await db("dcim_device").where({ rack_id: d.rack_id, position: d.position, face: d.face }).modify((q) => { if (id !== null) q.whereNot({ id }); }).first();
    if (taken) throw new Refusal({ non_field_errors: "The position and face is already occupied on this rack. The fields rack, position, face must make a unique set." });
  }
  if (rack && rack.site_id !== d.site_id) {
    const site = await one(db, "dcim_site", d.site_id);
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
    const ip = await one(db, "ipam_ipaddress", d[`${field}_id`]);
    if (ip && !String(ip.address).includes(family === 4 ? "." : ":")) throw new Refusal({ [field]: `${ip.address} is not an IPv${family} address.` });
  }
  if (d.name && !d.tenant_id) {
    const twin = await db("dcim_device").where({ name: d.name, site_id: d.site_id }).whereNull("tenant_id").modify((q) => { if (id !== null) q.whereNot({ id }); }).first();
    if (twin) throw new Refusal({ name: "A device with this name already exists." });
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
  const others = await db("dcim_device as o").join("dcim_devicetype as t", "t.id", "o.device_type_id")
    .where("o.rack_id", rack.id as string).where("o.position", ">=", 1).modify((q) => { if (id !== null) q.whereNot("o.id", id); })
    .select("o.position", "o.face", "t.u_height", "t.is_full_depth");
  const face = type.is_full_depth ? null : d.face;
  return !others.some((o: Row) => {
    if (face !== null && o.face !== face && !o.is_full_depth) return false;
    const top = Number(o.position) + Number(o.u_height) - 1;
    return Number(o.position) <= bottom + height - 1 && top >= bottom;
  });
}
