import { model, field } from "../../../generator/dsl/index.js";

export default model("RackRole", {
  app: "dcim",
  route: "rack-roles",
  description: "The function a rack serves.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e", format: "color", blank: false }),
    description: field.string({ maxLength: 200 }),
    rack_count: field.count({ of: "dcim.Rack.role" }),
  },
  nested: ["name", "slug"],
  brief: ["name", "slug", "rack_count"],
  filters: { q: ["name", "slug"], related: { racks: { of: "dcim.Rack.role", key: "name" } } },
});
