import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("VRF", {
  app: "ipam",
  route: "vrfs",
  verboseName: "VRF",
  description: "A virtual routing and forwarding table.",
  // With its route distinguisher when it has one, as Nautobot's VRF.display.
  display: "[{name} ({rd})|{name}]",
  ordering: ["name", "rd"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  naturalKey: "rd",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    rd: field.string({ nullable: true, unique: true, maxLength: 21, label: "Route distinguisher", verboseName: "Route distinguisher" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    enforce_unique: field.boolean({ default: true }),
    description: field.string({ maxLength: 200 }),
    import_targets: ref.m2m("ipam.RouteTarget", { relatedName: "importing_vrfs" }),
    export_targets: ref.m2m("ipam.RouteTarget", { relatedName: "exporting_vrfs" }),
    prefix_count: field.count({ of: "ipam.Prefix.vrf" }),
    ipaddress_count: field.count({ of: "ipam.IPAddress.vrf" }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "rd"],
  brief: ["name", "rd", "prefix_count"],
  filters: {
    q: ["name", "rd", "description"],
    via: { tenant_group: "tenant.group" },
    // Nautobot names the target filters in the singular (`import_target`, `import_target_id`).
    aliases: { import_target: "import_targets", export_target: "export_targets" },
    exclude: ["import_targets", "export_targets"],
  },
});
