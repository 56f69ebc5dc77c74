import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";
import { PowerOutletFeedLeg, PowerOutletType } from "./power-outlet-template.js";

export default model("PowerOutlet", {
  app: "dcim",
  route: "power-outlets",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A power outlet of a device, fed by one of its power ports.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/power-outlet",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "poweroutlets", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PowerOutletType, { blank: true }),
    power_port: ref.fk("dcim.PowerPort", { relatedName: "poweroutlets", nullable: true, onDelete: "setNull" }),
    feed_leg: field.choice(PowerOutletFeedLeg, { blank: true, description: "Phase (for three-phase feeds)" }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
    ...pathEndpoint(),
  },
  actions: traceAction,
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(true) },
});
