import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const IPAddressStatus = choices("IPAddressStatus", [
  ["active", "Active"], ["reserved", "Reserved"], ["deprecated", "Deprecated"],
  ["dhcp", "DHCP"], ["slaac", "SLAAC"],
]);

export const IPAddressRole = choices("IPAddressRole", [
  ["loopback", "Loopback"], ["secondary", "Secondary"], ["anycast", "Anycast"], ["vip", "VIP"],
  ["vrrp", "VRRP"], ["hsrp", "HSRP"], ["glbp", "GLBP"], ["carp", "CARP"],
]);

export default model("IPAddress", {
  app: "ipam",
  route: "ip-addresses",
  verboseName: "IP Address",
  description: "An IPv4 or IPv6 address with its mask.",
  display: "{address}",
  ordering: ["address"],
  features: ["tags", "customFields", "changeLogged"],
  hooks: "ipam/ip-address",
  fields: {
    family: field.ipFamily({ from: "address" }),
    address: field.ip({ required: true }),
    vrf: ref.fk("ipam.VRF", { nullable: true, label: "VRF" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    status: field.choice(IPAddressStatus, { required: true }),
    role: field.choice(IPAddressRole, { nullable: true, blank: true }),
    nat_inside: ref.fk("ipam.IPAddress", { nullable: true, onDelete: "setNull", label: "NAT (Inside)" }),
    nat_outside: ref.reverse("ipam.IPAddress.nat_inside", { singleUntil: "1.2", label: "NAT (Outside)" }),
    dns_name: field.string({
      maxLength: 255,
      label: "DNS name",
      pattern: { regex: "^[0-9A-Za-z._-]*$", message: "Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names" },
    }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["family", "address"],
  filters: {
    via: { tenant_group: "tenant.group" },
    q: ["description", "dns_name"],
    qAddress: "address",
    extra: {
      parent: { field: "address", lookup: "net_host_contained" },
      mask_length: { field: "address", lookup: "mask_length" },
    },
    methods: {
      // In the VRF, or in a VRF exporting a route target it imports (by rd, or by id).
      present_in_vrf: { takes: "ipam.VRF" },
      present_in_vrf_id: { takes: "ipam.VRF" },
    },
  },
});
