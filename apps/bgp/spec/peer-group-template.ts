import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("PeerGroupTemplate", {
  app: "nautobot_bgp_models",
  route: "peer-group-templates",
  verboseName: "BGP Peer Group Template",
  description: "Settings peer groups take from a template unless they set their own.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    role: ref.fk("nautobot_bgp_models.PeeringRole", { nullable: true, onDelete: "protect", asId: true, relatedName: "peer_group_templates" }),
    description: field.string({ maxLength: 200 }),
    enabled: field.boolean({ default: true }),
    autonomous_system: ref.fk("nautobot_bgp_models.AutonomousSystem", { nullable: true, onDelete: "protect", relatedName: "peer_group_templates" }),
    import_policy: field.string({ maxLength: 100 }),
    export_policy: field.string({ maxLength: 100 }),
    extra_attributes: field.json({ nullable: true, description: "Additional BGP attributes (JSON format)" }),
    secret: ref.fk("extras.Secret", { nullable: true, onDelete: "protect", relatedName: "bgp_peer_group_templates" }),
  },
  nested: ["name"],
  filters: { q: ["name", "description"] },
});
