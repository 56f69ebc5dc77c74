import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("PeerEndpoint", {
  app: "nautobot_bgp_models",
  route: "peer-endpoints",
  verboseName: "Peer Endpoint",
  description: "One end of a BGP peering: where it runs and what it inherits from its peer group.",
  display: "[{routing_instance.device.name}]",
  ordering: ["id"],
  features: ["tags", "customFields", "changeLogged"],
  hooks: "peer-endpoint",
  fields: {
    routing_instance: ref.fk("nautobot_bgp_models.BGPRoutingInstance", { nullable: true, onDelete: "cascade", label: "BGP Routing Instance", relatedName: "endpoints" }),
    source_ip: ref.fk("ipam.IPAddress", { nullable: true, onDelete: "protect", label: "BGP Peer IP", relatedName: "bgp_peer_endpoints" }),
    source_interface: ref.fk("dcim.Interface", { nullable: true, onDelete: "protect", relatedName: "bgp_peer_endpoints" }),
    autonomous_system: ref.fk("nautobot_bgp_models.AutonomousSystem", { nullable: true, onDelete: "protect", relatedName: "endpoints" }),
    peer_group: ref.fk("nautobot_bgp_models.PeerGroup", { nullable: true, onDelete: "protect", relatedName: "endpoints" }),
    peer: ref.fk("nautobot_bgp_models.PeerEndpoint", { nullable: true, onDelete: "setNull", relatedName: "+" }),
    import_policy: field.string({ maxLength: 100 }),
    export_policy: field.string({ maxLength: 100 }),
    peering: ref.fk("nautobot_bgp_models.Peering", { required: true, onDelete: "cascade", relatedName: "endpoints" }),
    secret: ref.fk("extras.Secret", { nullable: true, onDelete: "protect", relatedName: "bgp_peer_endpoints" }),
    enabled: field.boolean({ default: true }),
    extra_attributes: field.json({ nullable: true, description: "Additional BGP attributes (JSON format)" }),
  },
  nested: [],
  filters: { via: { device: "routing_instance.device" }, methods: { q: { takes: "string" } } },
});
