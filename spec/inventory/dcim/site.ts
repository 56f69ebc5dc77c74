import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const SiteStatus = choices("SiteStatus", [
  ["planned", "Planned"], ["staging", "Staging"], ["active", "Active"],
  ["decommissioning", "Decommissioning"], ["retired", "Retired"],
]);

export default model("Site", {
  app: "dcim",
  route: "sites",
  description: "A building or campus that holds equipment.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    status: field.status({ required: true, defaults: SiteStatus }),
    region: ref.fk("dcim.Region", { nullable: true, onDelete: "setNull" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    facility: field.string({ maxLength: 50 }),
    asn: field.integer({ nullable: true, min: 1, max: 4294967295 }),
    time_zone: field.string({ nullable: true, maxLength: 63 }),
    description: field.string({ maxLength: 200 }),
    physical_address: field.string({ maxLength: 200 }),
    shipping_address: field.string({ maxLength: 200 }),
    // Decimals as Nautobot keeps them: strings in responses, strings or numbers on write.
    latitude: field.decimal({ nullable: true, maxDigits: 8, decimalPlaces: 6, description: "GPS coordinate (latitude)" }),
    longitude: field.decimal({ nullable: true, maxDigits: 9, decimalPlaces: 6, description: "GPS coordinate (longitude)" }),
    contact_name: field.string({ maxLength: 50 }),
    contact_phone: field.string({ maxLength: 20 }),
    contact_email: field.string({ maxLength: 254, format: "email" }),
    comments: field.text(),
    device_count: field.count({ of: "dcim.Device.site" }),
    prefix_count: field.count({ of: "ipam.Prefix.site" }),
    rack_count: field.count({ of: "dcim.Rack.site" }),
    virtualmachine_count: field.count({ of: "virtualization.VirtualMachine.site" }),
    vlan_count: field.count({ of: "ipam.VLAN.site" }),
  },
  nested: ["name", "slug"],
  filters: {
    via: { tenant_group: "tenant.group" },
    related: {
      devices: { of: "dcim.Device.site", key: "name" },
      racks: { of: "dcim.Rack.site", key: "name" },
      rack_groups: { of: "dcim.RackGroup.site", key: "slug" },
      clusters: { of: "virtualization.Cluster.site", key: "name" },
    },
    q: ["name", "facility", "description", "physical_address", "shipping_address", "contact_name",
      "contact_phone", "contact_email", "comments"],
  },
});
