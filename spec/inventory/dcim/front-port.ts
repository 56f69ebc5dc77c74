import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathsAction } from "./cable.js";
import { PortType } from "./rear-port-template.js";

export default model("FrontPort", {
  app: "dcim",
  route: "front-ports",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A front port of a device, mapped to a rear port position.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/front-port",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "frontports", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PortType, { required: true }),
    rear_port: ref.fk("dcim.RearPort", { relatedName: "frontports", required: true, onDelete: "cascade" }),
    rear_port_position: field.integer({ default: 1, min: 1, max: 1024 }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
  },
  actions: pathsAction,
  uniqueTogether: [["device", "name"], ["rear_port", "rear_port_position"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(false) },
});
