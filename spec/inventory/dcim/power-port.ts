import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";
import { PowerPortType } from "./power-port-template.js";

export default model("PowerPort", {
  app: "dcim",
  route: "power-ports",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A power port of a device.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/cable-end",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "powerports", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PowerPortType, { blank: true }),
    maximum_draw: field.integer({ nullable: true, min: 1, max: 32767, description: "Maximum power draw (watts)" }),
    allocated_draw: field.integer({ nullable: true, min: 1, max: 32767, description: "Allocated power draw (watts)" }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
    ...pathEndpoint(),
  },
  actions: traceAction,
  // Power ports with a traced destination (Nautobot's PowerConnectionViewSet and filter set).
  listings: { "power-connections": { present: "connected_endpoint_type", filters: ["site", "device", "device_id", "name"] } },
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(true) },
});
