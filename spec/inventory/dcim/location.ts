import { model, field, ref, choices } from "../../../generator/dsl/index.js";
import { LOCATABLE } from "./location-type.js";

export const LocationStatus = choices("LocationStatus", [
  ["planned", "Planned"], ["staging", "Staging"], ["active", "Active"], ["decommissioning", "Decommissioning"], ["retired", "Retired"],
]);

export default model("Location", {
  app: "dcim",
  route: "locations",
  description: "A place more specific than a site (a building, a floor, a room), of a location type; locations nest.",
  display: "[{parent.parent.parent.name} → {parent.parent.name} → {parent.name} → {name}|{parent.parent.name} → {parent.name} → {name}|{parent.name} → {name}|{name}]",
  ordering: ["name"],
  features: ["tree", "tags", "customFields", "notes", "changeLogged"],
  tree: { depthName: "tree_depth", depthOnlyListed: true },
  hooks: "dcim/location",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    // Made from the parent's slug and the name when left out (Nautobot's AutoSlugField).
    slug: field.string({ unique: true, maxLength: 100, slugFrom: ["parent.slug", "name"] }),
    status: field.status({ required: true, defaults: LocationStatus }),
    location_type: ref.fk("dcim.LocationType", { required: true, onDelete: "protect" }),
    site: ref.fk("dcim.Site", { nullable: true, onDelete: "cascade" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["parent", "name"]],
  nested: ["name", "slug", "tree_depth"],
  filters: {
    q: ["name", "slug", "description"],
    via: { tenant_group: "tenant.group" },
    methods: {
      subtree: { takes: "dcim.Location" },
      child_location_type: { takes: "dcim.LocationType" },
      base_site: { takes: "dcim.Site" },
      content_type: { takes: "string", choices: LOCATABLE },
    },
  },
});
