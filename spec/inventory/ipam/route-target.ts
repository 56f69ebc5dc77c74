import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("RouteTarget", {
  app: "ipam",
  route: "route-targets",
  description: "A BGP extended community (RFC 4360) that VRFs import and export routes by.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/route-target",
  naturalKey: "name",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 21, description: "Route target value (formatted in accordance with RFC 4360)" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["name"],
  filters: {
    q: ["name", "description"],
    via: { tenant_group: "tenant.group" },
    // The VRFs on the other side of VRF.import_targets / export_targets (by id or rd).
    methods: {
      importing_vrf: { takes: "ipam.VRF" },
      importing_vrf_id: { takes: "ipam.VRF" },
      exporting_vrf: { takes: "ipam.VRF" },
      exporting_vrf_id: { takes: "ipam.VRF" },
    },
  },
});
