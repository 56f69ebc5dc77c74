import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const AfiSafi = choices("AFISAFIChoices", [
  ["ipv4_unicast", "IPv4 Unicast"], ["ipv4_labeled_unicast", "IPv4 Labeled Unicast"], ["ipv4_multicast", "IPv4 Multicast"],
  ["ipv4_flowspec", "IPv4 Flowspec"], ["ipv6_unicast", "IPv6 Unicast"], ["ipv6_labeled_unicast", "IPv6 Labeled Unicast"],
  ["ipv6_multicast", "IPv6 Multicast"], ["ipv6_flowspec", "IPv6 Flowspec"], ["vpnv4_unicast", "VPNv4 Unicast"],
  ["vpnv4_multicast", "VPNv4 Multicast"], ["vpnv6_unicast", "VPNv6 Unicast"], ["vpnv6_multicast", "VPNv6 Multicast"],
  ["l2_evpn", "L2 EVPN"], ["l2_vpls", "L2 VPLS"],
]);

export default model("AddressFamily", {
  app: "nautobot_bgp_models",
  route: "address-families",
  verboseName: "BGP address family",
  description: "An address family (AFI-SAFI) a routing instance carries, in a VRF or the global table.",
  display: "{afi_safi} AF - {routing_instance.device.name}",
  ordering: ["afi_safi"],
  features: ["customFields", "changeLogged"],
  hooks: "address-family",
  fields: {
    afi_safi: field.choice(AfiSafi, { required: true, label: "AFI-SAFI" }),
    routing_instance: ref.fk("nautobot_bgp_models.BGPRoutingInstance", { required: true, onDelete: "cascade", label: "BGP Routing Instance", relatedName: "address_families" }),
    vrf: ref.fk("ipam.VRF", { nullable: true, onDelete: "protect", label: "VRF", relatedName: "bgp_address_families" }),
    export_policy: field.string({ maxLength: 100 }),
    import_policy: field.string({ maxLength: 100 }),
  },
  nested: ["afi_safi"],
  filters: {},
});
