import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("VRF", {
  app: "ipam",
  route: "vrfs",
  verboseName: "VRF",
  description: "A virtual routing and forwarding table.",
  display: "{name}",
  ordering: ["name", "rd"],
  features: ["tags", "customFields", "changeLogged"],
  naturalKey: "rd",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    rd: field.string({ nullable: true, unique: true, maxLength: 21, label: "Route distinguisher" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    enforce_unique: field.boolean({ default: true }),
    description: field.string({ maxLength: 200 }),
    prefix_count: field.count({ of: "ipam.Prefix.vrf" }),
    ipaddress_count: field.count({ of: "ipam.IPAddress.vrf" }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "rd"],
  brief: ["name", "rd", "prefix_count"],
  filters: { q: ["name", "rd", "description"], via: { tenant_group: "tenant.group" } },
});
