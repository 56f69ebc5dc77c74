import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const VLANStatus = choices("VLANStatus", [["active", "Active"], ["reserved", "Reserved"], ["deprecated", "Deprecated"]]);

export default model("VLAN", {
  app: "ipam",
  route: "vlans",
  verboseName: "VLAN",
  description: "A layer-two forwarding domain, by its 12-bit id; ids and names are unique within a VLAN group.",
  display: "{name} ({vid})",
  ordering: ["site", "group", "vid"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/vlan",
  fields: {
    site: ref.fk("dcim.Site", { nullable: true }),
    location: ref.fk("dcim.Location", { nullable: true }),
    group: ref.fk("ipam.VLANGroup", { nullable: true }),
    vid: field.integer({ required: true, min: 1, max: 4094, label: "ID" }),
    name: field.string({ required: true, maxLength: 255 }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    status: field.status({ required: true, defaults: VLANStatus }),
    role: ref.fk("ipam.Role", { nullable: true, onDelete: "setNull" }),
    description: field.string({ maxLength: 200 }),
    prefix_count: field.count({ of: "ipam.Prefix.vlan" }),
  },
  uniqueTogether: [["group", "vid"], ["group", "name"]],
  // Filters naming VLANs take an id or a number (every VLAN of that number), as Nautobot's
  // interface filters `untagged_vlan` and `tagged_vlans` do.
  naturalKey: "vid",
  nested: ["vid", "name"],
  filters: {
    via: { tenant_group: "tenant.group", region: "site.region" },
    q: ["name", "description", "vid"],
    methods: {
      // VLANs of the device's site, and those of no site; a device id that names none matches nothing.
      available_on_device: { takes: "string" },
    },
  },
});
