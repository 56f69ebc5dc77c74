import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const PrefixStatus = choices("PrefixStatus", [
  ["container", "Container"], ["active", "Active"],
  ["reserved", "Reserved"], ["deprecated", "Deprecated"],
]);

/** An entry of free space: Nautobot's AvailablePrefixSerializer and AvailableIPSerializer. */
const available = (key: string) => ({
  type: "object",
  properties: {
    family: { type: "integer", enum: [4, 6] }, [key]: { type: "string" },
    vrf: { anyOf: [{ $ref: "#/components/schemas/NestedVRF" }, { type: "null" }] },
  },
  required: ["family", key, "vrf"],
  additionalProperties: false,
});

export default model("Prefix", {
  app: "ipam",
  route: "prefixes",
  description: "An IPv4 or IPv6 network.",
  display: "{prefix}",
  ordering: ["vrf", "prefix"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/prefix",
  // Nautobot keeps these as model fields, which its GraphQL type shows and its REST serializer does not.
  graphqlFields: {
    network: { type: "String", sql: "host(network({prefix}))" },
    broadcast: { type: "String", sql: "host(broadcast({prefix}))" },
    prefix_length: { type: "Int", sql: "masklen({prefix})" },
  },
  fields: {
    family: field.ipFamily({ from: "prefix" }),
    prefix: field.cidr({ required: true }),
    site: ref.fk("dcim.Site", { nullable: true }),
    location: ref.fk("dcim.Location", { nullable: true }),
    vrf: ref.fk("ipam.VRF", { nullable: true, label: "VRF" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    vlan: ref.fk("ipam.VLAN", { nullable: true, label: "VLAN" }),
    status: field.status({ required: true, defaults: PrefixStatus }),
    role: ref.fk("ipam.Role", { nullable: true, onDelete: "setNull" }),
    is_pool: field.boolean({ default: false, label: "Is a pool" }),
    // Searched by `q` (with the prefix itself); indexed, so a search need not read every prefix.
    description: field.string({ maxLength: 200, searchIndexed: true }),
  },
  actions: {
    "available-prefixes": {
      description: "The free space of the prefix as the fewest CIDR blocks; a POST of {prefix_length} (or a list) creates prefixes there",
      response: { type: "array", items: available("prefix") },
      creates: {
        model: "ipam.Prefix",
        request: { type: "object", properties: { prefix_length: { type: "integer", minimum: 0, maximum: 128 } }, required: ["prefix_length"], additionalProperties: {} },
      },
    },
    "available-ips": {
      description: "The first free addresses of the prefix (`limit`, default one page); a POST (one object or a list) creates addresses there",
      parameters: { limit: { description: "How many addresses to list" } },
      response: { type: "array", items: available("address") },
      creates: { model: "ipam.IPAddress", request: { type: "object", additionalProperties: {} } },
    },
  },
  nested: ["family", "prefix"],
  filters: {
    via: { tenant_group: "tenant.group", region: "site.region" },
    q: ["description"],
    qAddress: "prefix",
    extra: {
      within: { field: "prefix", lookup: "net_contained" },
      within_include: { field: "prefix", lookup: "net_contained_or_equal" },
      contains: { field: "prefix", lookup: "net_contains_or_equals" },
      mask_length: { field: "prefix", lookup: "mask_length" },
      mask_length__gte: { field: "prefix", lookup: "mask_length__gte" },
      mask_length__lte: { field: "prefix", lookup: "mask_length__lte" },
    },
    methods: {
      // In the VRF, or in a VRF exporting a route target it imports (by rd, or by id).
      present_in_vrf: { takes: "ipam.VRF" },
      present_in_vrf_id: { takes: "ipam.VRF" },
      vlan_vid: { takes: "string" },
    },
  },
});
