import { model, field } from "../../../generator/dsl/index.js";

/** What locations may hold (Nautobot's FeatureQuery("locations")), as content-type labels. */
export const LOCATABLE = [
  "circuits.circuittermination", "dcim.device", "dcim.powerpanel", "dcim.rack", "dcim.rackgroup", "ipam.prefix", "ipam.vlan",
  "ipam.vlangroup", "virtualization.cluster",
];

export default model("LocationType", {
  app: "dcim",
  route: "location-types",
  description: "A kind of location (campus, building, floor, room): which kinds nest in it and what its locations may hold.",
  // Shown with its ancestors, top down, as Nautobot's display does (four levels here).
  display: "[{parent.parent.parent.name} → {parent.parent.name} → {parent.name} → {name}|{parent.parent.name} → {parent.name} → {name}|{parent.name} → {name}|{name}]",
  ordering: ["name"],
  features: ["tree", "customFields", "notes", "changeLogged"],
  tree: { depthName: "tree_depth", depthOnlyListed: true },
  hooks: "dcim/location-type",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    nestable: field.boolean({ default: false, description: "Allow Locations of this type to be parents/children of other Locations of this same type" }),
    content_types: field.json({
      default: [],
      label: "Permitted object types",
      description: "The object type(s) that can be associated to a Location of this type.",
      schema: { type: "array", items: { type: "string", enum: LOCATABLE }, uniqueItems: true },
    }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["name", "slug", "tree_depth"],
  filters: { q: ["name", "slug", "description"], methods: { content_types: { takes: "string", choices: LOCATABLE } } },
});
