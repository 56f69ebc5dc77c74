import { model, field } from "../../../generator/dsl/index.js";

export default model("Region", {
  app: "dcim",
  route: "regions",
  description: "A geographic area that holds sites; regions nest.",
  display: "{name}",
  ordering: ["name"],
  features: ["tree", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    site_count: field.count({ of: "dcim.Site.region", descendants: true }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "slug", "_depth"],
  brief: ["name", "slug", "site_count", "_depth"],
  filters: { q: ["name", "slug", "description"] },
});
