import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";
import { ConsolePortType } from "./console-port-template.js";

export default model("ConsoleServerPort", {
  app: "dcim",
  route: "console-server-ports",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A console server port of a device.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/cable-end",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "consoleserverports", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(ConsolePortType, { blank: true }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
    ...pathEndpoint(),
  },
  actions: traceAction,
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(true) },
});
