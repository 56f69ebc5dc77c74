import { model, field, ref } from "../../../generator/dsl/index.js";
import { ConsolePortType } from "./console-port-template.js";

export default model("ConsoleServerPortTemplate", {
  app: "dcim",
  route: "console-server-port-templates",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device_type",
  description: "A console server port every device of a type has.",
  display: "{name}",
  ordering: ["device_type.manufacturer.name", "device_type.model", "name"],
  features: ["customFields", "changeLogged"],
  fields: {
    device_type: ref.fk("dcim.DeviceType", { relatedName: "consoleserverporttemplates", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(ConsolePortType, { blank: true }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device_type", "name"]],
  nested: ["name"],
  // Nautobot names the device type filter devicetype_id here (the Ansible collection uses it).
  filters: { q: ["name", "label", "description"], aliases: { devicetype: "device_type" } },
});
