import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const IPAddressStatus = choices("IPAddressStatus", [
  ["active", "Active"], ["reserved", "Reserved"], ["deprecated", "Deprecated"],
  ["dhcp", "DHCP"], ["slaac", "SLAAC"],
]);

export const IPAddressRole = choices("IPAddressRole", [
  ["loopback", "Loopback"], ["secondary", "Secondary"], ["anycast", "Anycast"], ["vip", "VIP"],
  ["vrrp", "VRRP"], ["hsrp", "HSRP"], ["glbp", "GLBP"], ["carp", "CARP"],
]);

/** What an address may be assigned to (Nautobot's IPADDRESS_ASSIGNMENT_MODELS). */
export const IP_ASSIGNMENT = ["dcim.Interface", "virtualization.VMInterface"];

export default model("IPAddress", {
  app: "ipam",
  route: "ip-addresses",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "assigned_object",
  verboseName: "IP Address",
  description: "An IPv4 or IPv6 address with its mask.",
  display: "{address}",
  ordering: ["address"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/ip-address",
  // Nautobot keeps these as model fields, which its GraphQL type shows and its REST serializer does not.
  graphqlFields: {
    host: { type: "String", sql: "host({address})" },
    broadcast: { type: "String", sql: "host(broadcast({address}))" },
    prefix_length: { type: "Int", sql: "masklen({address})" },
  },
  fields: {
    family: field.ipFamily({ from: "address" }),
    address: field.ip({ required: true }),
    vrf: ref.fk("ipam.VRF", { nullable: true, label: "VRF" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    status: field.status({ required: true, defaults: IPAddressStatus }),
    role: field.choice(IPAddressRole, { nullable: true, blank: true }),
    // The interface the address is configured on (Django's GenericForeignKey): both or neither.
    assigned_object_type: field.contentType({ models: IP_ASSIGNMENT, nullable: true }),
    assigned_object_id: field.uuid({ nullable: true }),
    assigned_object: ref.generic({ type: "assigned_object_type", id: "assigned_object_id", onDelete: "cascade" }),
    nat_inside: ref.fk("ipam.IPAddress", { relatedName: "nat_outside_list", nullable: true, onDelete: "setNull", label: "NAT (Inside)" }),
    nat_outside: ref.reverse("ipam.IPAddress.nat_inside", { singleUntil: "1.2", label: "NAT (Outside)" }),
    dns_name: field.string({
      maxLength: 255,
      label: "DNS name",
      pattern: { regex: "^[0-9A-Za-z._-]*$", message: "Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names" },
    }),
    description: field.string({ maxLength: 200 }),
  },
  indexes: [{ fields: ["assigned_object_type", "assigned_object_id"] }],
  sql: {
    // Addresses in host order whatever their masks: a prefix's free addresses are found by a
    // range scan of this index (hooks/inventory/ipam/prefix.ts uses the same expression).
    host_index: {
      up: `CREATE INDEX IF NOT EXISTS "ipam_ipaddress_host" ON "ipam_ipaddress" ((set_masklen(address, CASE WHEN family(address) = 4 THEN 32 ELSE 128 END)));`,
      down: `DROP INDEX IF EXISTS "ipam_ipaddress_host";`,
    },
  },
  nested: ["family", "address"],
  filters: {
    via: { tenant_group: "tenant.group" },
    q: ["description", "dns_name"],
    // Nautobot's filter set has no filters of the generic relation's own columns.
    exclude: ["assigned_object_type", "assigned_object_id"],
    present: { assigned_to_interface: "assigned_object_id" },
    qAddress: "address",
    extra: {
      parent: { field: "address", lookup: "net_host_contained" },
      mask_length: { field: "address", lookup: "mask_length" },
    },
    methods: {
      interface: { takes: "dcim.Interface" }, interface_id: { takes: "dcim.Interface" },
      device: { takes: "string" }, device_id: { takes: "uuid" },
      vminterface: { takes: "virtualization.VMInterface" }, vminterface_id: { takes: "virtualization.VMInterface" },
      virtual_machine: { takes: "string" }, virtual_machine_id: { takes: "uuid" },
      // In the VRF, or in a VRF exporting a route target it imports (by rd, or by id).
      present_in_vrf: { takes: "ipam.VRF" },
      present_in_vrf_id: { takes: "ipam.VRF" },
    },
  },
});
