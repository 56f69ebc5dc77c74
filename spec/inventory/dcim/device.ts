import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const DeviceStatus = choices("DeviceStatus", [
  ["offline", "Offline"], ["active", "Active"], ["planned", "Planned"], ["staged", "Staged"],
  ["failed", "Failed"], ["inventory", "Inventory"], ["decommissioning", "Decommissioning"],
]);

export const DeviceFace = choices("DeviceFace", [["front", "Front"], ["rear", "Rear"]]);

export default model("Device", {
  app: "dcim",
  route: "devices",
  description: "A piece of hardware at a site, optionally mounted in a rack.",
  // Unnamed devices show their chassis and position, or else their type, and their id, as Nautobot's.
  display: "[{name}|{virtual_chassis.name}:{vc_position} ({id})|{device_type.manufacturer.name} {device_type.model} ({id})]",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/device",
  fields: {
    name: field.string({ nullable: true, maxLength: 64 }),
    device_type: ref.fk("dcim.DeviceType", { relatedName: "instances", required: true, onDelete: "protect" }),
    device_role: ref.fk("dcim.DeviceRole", { required: true, onDelete: "protect" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    platform: ref.fk("dcim.Platform", { nullable: true, onDelete: "setNull" }),
    serial: field.string({ maxLength: 255, label: "Serial number" }),
    asset_tag: field.string({ nullable: true, unique: true, verboseName: "Asset tag", maxLength: 50, description: "A unique tag used to identify this device" }),
    site: ref.fk("dcim.Site", { required: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { nullable: true, onDelete: "protect" }),
    rack: ref.fk("dcim.Rack", { nullable: true, onDelete: "protect" }),
    position: field.integer({ nullable: true, min: 1, max: 32767, label: "Position (U)", description: "The lowest-numbered unit occupied by the device" }),
    face: field.choice(DeviceFace, { blank: true, label: "Rack face" }),
    // The device whose bay holds this one, with that bay (Nautobot's parent_bay).
    parent_device: ref.reverse("dcim.DeviceBay.installed_device", { through: { show: "device", as: "device_bay" } }),
    status: field.status({ required: true, defaults: DeviceStatus }),
    // IPv6 first, as Nautobot with PREFER_IPV4 off (its default).
    primary_ip: ref.firstSet(["primary_ip6", "primary_ip4"], { label: "Primary IP" }),
    primary_ip4: ref.fk("ipam.IPAddress", { relatedName: "primary_ip4_for", oneToOne: true, nullable: true, onDelete: "setNull", label: "Primary IPv4", verboseName: "Primary IPv4" }),
    primary_ip6: ref.fk("ipam.IPAddress", { relatedName: "primary_ip6_for", oneToOne: true, nullable: true, onDelete: "setNull", label: "Primary IPv6", verboseName: "Primary IPv6" }),
    secrets_group: ref.fk("extras.SecretsGroup", { relatedName: "device_set", nullable: true, onDelete: "setNull" }),
    cluster: ref.fk("virtualization.Cluster", { nullable: true, onDelete: "setNull" }),
    virtual_chassis: ref.fk("dcim.VirtualChassis", { relatedName: "members", nullable: true, onDelete: "setNull" }),
    vc_position: field.integer({ nullable: true, min: 0, max: 255 }),
    vc_priority: field.integer({ nullable: true, min: 0, max: 255 }),
    device_redundancy_group: ref.fk("dcim.DeviceRedundancyGroup", { relatedName: "members", nullable: true, onDelete: "setNull", label: "Device Redundancy Group" }),
    device_redundancy_group_priority: field.integer({
      nullable: true, min: 1, max: 32767, label: "Device Redundancy Group Priority", description: "The priority the device has in the device redundancy group.",
    }),
    comments: field.text(),
    local_context_schema: ref.fk("extras.ConfigContextSchema", { relatedName: "device_set", nullable: true, onDelete: "setNull", description: "Optional schema to validate the structure of the data" }),
    local_context_data: field.json({ nullable: true }),
    // Every active config context assigned to the device, merged by weight, then its local data
    // (Nautobot's get_config_context), computed in the read by the hook's SQL.
    config_context: field.computed({ excludable: true, schema: { type: "object", additionalProperties: {} } }),
  },
  // A primary address belongs to one device (OneToOneField).
  // The serializer drops DRF's validators (validators = []) and adds back only the rack one:
  // the others are Django's model validation, with its words.
  uniqueTogether: [
    { fields: ["site", "tenant", "name"], checkedBy: "django" }, ["rack", "position", "face"],
    { fields: ["virtual_chassis", "vc_position"], checkedBy: "django" },
    { fields: ["primary_ip4"], checkedBy: "django" }, { fields: ["primary_ip6"], checkedBy: "django" },
  ],
  // Filters take a device by id or name (every device of that name), as Nautobot's.
  naturalKey: "name",
  nested: ["name"],
  filters: {
    exclude: ["device_role"],
    aliases: { role: "device_role", model: "device_type" },
    via: { manufacturer: "device_type.manufacturer", rack_group: "rack.group", tenant_group: "tenant.group", region: "site.region" },
    q: ["name", "serial", "dcim.InventoryItem.device.serial", "asset_tag", "comments"],
    present: {
      has_primary_ip: ["primary_ip4", "primary_ip6"],
      is_virtual_chassis_member: "virtual_chassis",
      virtual_chassis_member: "virtual_chassis",
      local_context_data: "local_context_data",
    },
    // Nautobot offers each as has_<x> and under the bare name too.
    membership: {
      has_console_ports: "dcim.ConsolePort.device", console_ports: "dcim.ConsolePort.device",
      has_console_server_ports: "dcim.ConsoleServerPort.device", console_server_ports: "dcim.ConsoleServerPort.device",
      has_power_ports: "dcim.PowerPort.device", power_ports: "dcim.PowerPort.device",
      has_power_outlets: "dcim.PowerOutlet.device", power_outlets: "dcim.PowerOutlet.device",
      has_interfaces: "dcim.Interface.device", interfaces: "dcim.Interface.device",
      has_front_ports: "dcim.FrontPort.device", has_rear_ports: "dcim.RearPort.device",
      has_device_bays: "dcim.DeviceBay.device", device_bays: "dcim.DeviceBay.device",
    },
    methods: { pass_through_ports: { takes: "boolean" }, is_full_depth: { takes: "boolean" }, mac_address: { takes: "string" } },
  },
});
