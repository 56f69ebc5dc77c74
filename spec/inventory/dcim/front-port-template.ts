import { model, field, ref } from "../../../generator/dsl/index.js";
import { PortType } from "./rear-port-template.js";

export default model("FrontPortTemplate", {
  app: "dcim",
  route: "front-port-templates",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device_type",
  description: "A front port every device of a type has, mapped to a rear port position.",
  display: "{name}",
  ordering: ["device_type.manufacturer.name", "device_type.model", "name"],
  features: ["customFields", "changeLogged"],
  hooks: "dcim/same-parent",
  fields: {
    device_type: ref.fk("dcim.DeviceType", { relatedName: "frontporttemplates", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PortType, { required: true }),
    rear_port: ref.fk("dcim.RearPortTemplate", { relatedName: "frontport_templates", required: true, onDelete: "cascade" }),
    rear_port_position: field.integer({ default: 1, min: 1, max: 1024 }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device_type", "name"], ["rear_port", "rear_port_position"]],
  nested: ["name"],
  // Nautobot names the device type filter devicetype_id here (the Ansible collection uses it).
  filters: { q: ["name", "label", "description"], aliases: { devicetype: "device_type" } },
});
