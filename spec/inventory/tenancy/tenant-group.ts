import { model, field } from "../../../generator/dsl/index.js";

export default model("TenantGroup", {
  app: "tenancy",
  route: "tenant-groups",
  description: "A tree of groups that tenants belong to.",
  display: "{name}",
  ordering: ["name"],
  features: ["tree", "changeLogged", "customFields"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    tenant_count: field.count({ of: "tenancy.Tenant.group", descendants: true }),
  },
  nested: ["name", "slug", "tenant_count", "_depth"],
  filters: { q: ["name", "slug", "description"] },
});
