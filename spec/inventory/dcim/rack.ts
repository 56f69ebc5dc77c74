import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const RackStatus = choices("RackStatus", [
  ["reserved", "Reserved"], ["available", "Available"], ["planned", "Planned"], ["active", "Active"], ["deprecated", "Deprecated"],
]);

export const RackType = choices("RackType", [
  ["2-post-frame", "2-post frame"], ["4-post-frame", "4-post frame"], ["4-post-cabinet", "4-post cabinet"],
  ["wall-frame", "Wall-mounted frame"], ["wall-frame-vertical", "Wall-mounted frame (vertical)"],
  ["wall-cabinet", "Wall-mounted cabinet"], ["wall-cabinet-vertical", "Wall-mounted cabinet (vertical)"], ["other", "Other"],
]);

export const RackWidth = choices("RackWidth", [[10, "10 inches"], [19, "19 inches"], [21, "21 inches"], [23, "23 inches"]]);

export const RackDimensionUnit = choices("RackDimensionUnit", [["mm", "Millimeters"], ["in", "Inches"]]);

export default model("Rack", {
  app: "dcim",
  route: "racks",
  description: "A frame or cabinet of rack units at a site.",
  display: "{name}[ ({facility_id})]",
  ordering: ["site", "group", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    facility_id: field.string({ nullable: true, maxLength: 50, label: "Facility ID", description: "Locally-assigned identifier" }),
    site: ref.fk("dcim.Site", { required: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { nullable: true, onDelete: "protect" }),
    group: ref.fk("dcim.RackGroup", { nullable: true, onDelete: "setNull" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    status: field.status({ required: true, defaults: RackStatus }),
    role: ref.fk("dcim.RackRole", { nullable: true, onDelete: "protect" }),
    serial: field.string({ maxLength: 255, label: "Serial number" }),
    asset_tag: field.string({ nullable: true, unique: true, maxLength: 50, description: "A unique tag used to identify this rack" }),
    type: field.choice(RackType, { blank: true }),
    width: field.choice(RackWidth, { default: 19, description: "Rail-to-rail width" }),
    u_height: field.integer({ default: 42, min: 1, max: 100, label: "Height (U)", description: "Height in rack units" }),
    desc_units: field.boolean({ default: false, label: "Descending units", description: "Units are numbered top-to-bottom" }),
    outer_width: field.integer({ nullable: true, min: 0, max: 32767, description: "Outer dimension of rack (width)" }),
    outer_depth: field.integer({ nullable: true, min: 0, max: 32767, description: "Outer dimension of rack (depth)" }),
    outer_unit: field.choice(RackDimensionUnit, { blank: true }),
    comments: field.text(),
    device_count: field.count({ of: "dcim.Device.rack" }),
  },
  uniqueTogether: [["group", "name"], ["group", "facility_id"]],
  nested: ["name"],
  hooks: "dcim/rack",
  actions: {
    elevation: {
      description: "The rack's units, top first, with the device filling each on one face (face, exclude, expand_devices, q)",
      paginated: true,
      response: {
        type: "object",
        properties: {
          id: { type: "integer" },
          name: { type: "string" },
          face: { type: "object", properties: { value: { enum: ["front", "rear"] }, label: { enum: ["Front", "Rear"] } }, required: ["value", "label"] },
          device: { anyOf: [{ type: "object", additionalProperties: {} }, { type: "null" }] },
          occupied: { type: "boolean" },
        },
        required: ["id", "name", "face", "device", "occupied"],
      },
    },
  },
  brief: ["name", "device_count"],
  filters: {
    via: { tenant_group: "tenant.group" },
    related: { devices: { of: "dcim.Device.rack", key: "name" } },
    q: ["name", "facility_id", "serial", "asset_tag", "comments"],
  },
});
