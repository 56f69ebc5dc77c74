import { model, field, ref } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathsAction } from "./cable.js";
import { PortType } from "./rear-port-template.js";

export default model("RearPort", {
  app: "dcim",
  route: "rear-ports",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A rear port of a device (patch panels, breakouts), with its positions.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/rear-port",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "rearports", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PortType, { required: true }),
    positions: field.integer({ default: 1, min: 1, max: 1024 }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
  },
  actions: pathsAction,
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name", "cable"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" }, ...cableEndFilters(false) },
});
