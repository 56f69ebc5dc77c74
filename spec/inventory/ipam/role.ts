import { model, field } from "../../../generator/dsl/index.js";

export default model("Role", {
  app: "ipam",
  route: "roles",
  description: "The functional role of a prefix or VLAN.",
  display: "{name}",
  ordering: ["weight", "name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    weight: field.integer({ default: 1000, min: 0, max: 32767 }),
    description: field.string({ maxLength: 200 }),
    prefix_count: field.count({ of: "ipam.Prefix.role" }),
    vlan_count: field.count({ of: "ipam.VLAN.role" }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "slug"],
  brief: ["name", "slug", "prefix_count", "vlan_count"],
  filters: { q: ["name", "slug"] },
});
