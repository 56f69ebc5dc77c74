import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const VirtualMachineStatus = choices("VirtualMachineStatus", [
  ["offline", "Offline"], ["active", "Active"], ["planned", "Planned"], ["staged", "Staged"],
  ["failed", "Failed"], ["decommissioning", "Decommissioning"],
]);

export default model("VirtualMachine", {
  app: "virtualization",
  route: "virtual-machines",
  description: "A virtual machine running in a cluster.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "virtualization/virtual-machine",
  fields: {
    name: field.string({ required: true, maxLength: 64 }),
    status: field.status({ required: true, defaults: VirtualMachineStatus }),
    // The cluster's site and location (Nautobot's properties), kept in step by the hooks of
    // both models so that filters and counts by site are plain column lookups.
    site: ref.fk("dcim.Site", { nullable: true, readOnly: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { nullable: true, readOnly: true, onDelete: "protect" }),
    cluster: ref.fk("virtualization.Cluster", { required: true, onDelete: "protect" }),
    role: ref.fk("dcim.DeviceRole", { nullable: true, onDelete: "protect" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    platform: ref.fk("dcim.Platform", { nullable: true, onDelete: "setNull" }),
    // IPv6 first, as Nautobot with PREFER_IPV4 off (its default).
    primary_ip: ref.firstSet(["primary_ip6", "primary_ip4"], { label: "Primary IP" }),
    primary_ip4: ref.fk("ipam.IPAddress", { relatedName: "+", nullable: true, onDelete: "setNull", label: "Primary IPv4", verboseName: "Primary IPv4" }),
    primary_ip6: ref.fk("ipam.IPAddress", { relatedName: "+", nullable: true, onDelete: "setNull", label: "Primary IPv6", verboseName: "Primary IPv6" }),
    vcpus: field.integer({ nullable: true, min: 0, max: 32767, label: "vCPUs" }),
    memory: field.integer({ nullable: true, min: 0, max: 2147483647, label: "Memory (MB)" }),
    disk: field.integer({ nullable: true, min: 0, max: 2147483647, label: "Disk (GB)" }),
    comments: field.text(),
    local_context_data: field.json({ nullable: true }),
    local_context_schema: ref.fk("extras.ConfigContextSchema", { relatedName: "virtualmachine_set", nullable: true, onDelete: "setNull", description: "Optional schema to validate the structure of the data" }),
    // As a device's: matching config contexts merged by weight, then the local data.
    config_context: field.computed({ excludable: true, schema: { type: "object", additionalProperties: {} } }),
  },
  // A primary address belongs to one machine (OneToOneField).
  // The serializer drops DRF's validators (validators = []): Django's model validation words these.
  uniqueTogether: [
    { fields: ["cluster", "tenant", "name"], checkedBy: "django" },
    { fields: ["primary_ip4"], checkedBy: "django" }, { fields: ["primary_ip6"], checkedBy: "django" },
  ],
  naturalKey: "name",
  nested: ["name"],
  filters: {
    q: ["name", "comments"],
    via: {
      cluster_group: "cluster.group", cluster_type: "cluster.type", region: "site.region", tenant_group: "tenant.group",
    },
    present: { has_primary_ip: ["primary_ip4", "primary_ip6"], local_context_data: "local_context_data" },
    related: {
      interfaces: { of: "virtualization.VMInterface.virtual_machine", key: "name" },
      services: { of: "ipam.Service.virtual_machine", key: "name" },
    },
    methods: { mac_address: { takes: "string" } },
  },
});
