import { model, field } from "../../../generator/dsl/index.js";

export default model("PeeringRole", {
  app: "nautobot_bgp_models",
  route: "peering-roles",
  verboseName: "BGP Peering Role",
  description: "The role of a peer group or a peer endpoint.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e", format: "color", blank: false }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["name", "slug", "color"],
  filters: { q: ["name", "slug", "description"] },
});
