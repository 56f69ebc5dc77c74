import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("RackGroup", {
  app: "dcim",
  route: "rack-groups",
  description: "Racks grouped within a site (a room, a row); groups nest.",
  display: "{name}",
  ordering: ["site", "name"],
  features: ["tree", "customFields", "notes", "changeLogged"],
  hooks: "dcim/rack-group",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    // Unique per site only, as Nautobot 1.x keeps it.
    slug: field.string({ maxLength: 100, slugFrom: "name" }),
    site: ref.fk("dcim.Site", { required: true, onDelete: "cascade" }),
    location: ref.fk("dcim.Location", { nullable: true, onDelete: "protect" }),
    description: field.string({ maxLength: 200 }),
    rack_count: field.count({ of: "dcim.Rack.group", descendants: true }),
  },
  uniqueTogether: [["site", "name"], ["site", "slug"]],
  nested: ["name", "slug", "_depth"],
  brief: ["name", "slug", "rack_count", "_depth"],
  filters: { q: ["name", "slug", "description"], related: { racks: { of: "dcim.Rack.group", key: "name" } } },
});
