import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("BGPRoutingInstance", {
  app: "nautobot_bgp_models",
  route: "routing-instances",
  verboseName: "BGP Routing Instance",
  description: "BGP as one device runs it: its autonomous system and router id.",
  display: "{device.name} - AS {autonomous_system.asn}",
  ordering: ["device", "autonomous_system"],
  features: ["customFields", "changeLogged"],
  hooks: "routing-instance",
  fields: {
    device: ref.fk("dcim.Device", { required: true, onDelete: "protect", relatedName: "bgp_routing_instances" }),
    description: field.string({ maxLength: 200 }),
    router_id: ref.fk("ipam.IPAddress", { nullable: true, onDelete: "protect", label: "Router ID", relatedName: "bgp_routing_instances" }),
    autonomous_system: ref.fk("nautobot_bgp_models.AutonomousSystem", { required: true, onDelete: "protect", relatedName: "routing_instances" }),
    endpoints: ref.reverse("nautobot_bgp_models.PeerEndpoint.routing_instance"),
    extra_attributes: field.json({ nullable: true, description: "Additional BGP attributes (JSON format)" }),
  },
  uniqueTogether: [["device", "autonomous_system"]],
  nested: [],
  // `device` (id or name) and `device_id` come from the field, as the app's two filters; `q` searches the device's name.
  filters: { methods: { q: { takes: "string" } } },
});
