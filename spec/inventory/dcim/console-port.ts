import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";
import { ConsolePortType } from "./console-port-template.js";

export default model("ConsolePort", {
  app: "dcim",
  route: "console-ports",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A console port of a device.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/cable-end",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "consoleports", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(ConsolePortType, { blank: true }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
    ...pathEndpoint(),
  },
  actions: traceAction,
  // Console ports with a traced destination (Nautobot's ConsoleConnectionViewSet and filter set).
  listings: { "console-connections": { present: "connected_endpoint_type", filters: ["site", "device", "device_id", "name"] } },
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(true) },
});
