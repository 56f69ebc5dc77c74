import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Tenant", {
  app: "tenancy",
  route: "tenants",
  description: "A customer or organisation that owns resources.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    group: ref.fk("tenancy.TenantGroup", { onDelete: "setNull" }),
    description: field.string({ maxLength: 200 }),
    comments: field.text(),
    site_count: field.count({ of: "dcim.Site.tenant" }),
    prefix_count: field.count({ of: "ipam.Prefix.tenant" }),
    ipaddress_count: field.count({ of: "ipam.IPAddress.tenant" }),
    virtualmachine_count: field.count({ of: "virtualization.VirtualMachine.tenant" }),
    vlan_count: field.count({ of: "ipam.VLAN.tenant" }),
    vrf_count: field.count({ of: "ipam.VRF.tenant" }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "slug", "description", "comments"] },
});
