import { model, field, ref, choices } from "../../../generator/dsl/index.js";

/** The statuses the app gives peerings (its PluginConfig's default_statuses). */
export const PeeringStatus = choices("PeeringStatus", [
  ["active", "Active"], ["decommissioned", "Decommissioned"], ["deprovisioning", "Deprovisioning"],
  ["offline", "Offline"], ["planned", "Planned"], ["provisioning", "Provisioning"],
]);

export default model("Peering", {
  app: "nautobot_bgp_models",
  route: "peerings",
  verboseName: "BGP Peering",
  description: "A BGP session between two peer endpoints.",
  display: "Peering {id}",
  ordering: ["id"],
  features: ["customFields", "changeLogged"],
  hooks: "peering",
  fields: {
    status: field.status({ required: true, defaults: PeeringStatus }),
    endpoints: ref.reverse("nautobot_bgp_models.PeerEndpoint.peering"),
  },
  nested: ["status"],
  // `device`: the peerings with an endpoint on the device (by id or name), as the app's.
  filters: { methods: { device: { takes: "dcim.Device" } } },
});
