import { model, field } from "../../../generator/dsl/index.js";

export default model("TenantGroup", {
  app: "tenancy",
  route: "tenant-groups",
  description: "A tree of groups that tenants belong to.",
  display: "{name}",
  ordering: ["name"],
  features: ["tree", "changeLogged", "customFields", "notes"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    tenant_count: field.count({ of: "tenancy.Tenant.group", descendants: true }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "slug", "_depth"],
  brief: ["name", "slug", "tenant_count", "_depth"],
  filters: { q: ["name", "slug", "description"] },
});
