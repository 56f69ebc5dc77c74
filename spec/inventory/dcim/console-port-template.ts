import { model, field, ref, choices } from "../../../generator/dsl/index.js";

// Shared by console ports, console server ports and their templates.
export const ConsolePortType = choices("ConsolePortType", [
  ["de-9", "DE-9"], ["db-25", "DB-25"], ["rj-11", "RJ-11"], ["rj-12", "RJ-12"], ["rj-45", "RJ-45"],
  ["mini-din-8", "Mini-DIN 8"], ["usb-a", "USB Type A"], ["usb-b", "USB Type B"], ["usb-c", "USB Type C"],
  ["usb-mini-a", "USB Mini A"], ["usb-mini-b", "USB Mini B"], ["usb-micro-a", "USB Micro A"],
  ["usb-micro-b", "USB Micro B"], ["usb-micro-ab", "USB Micro AB"], ["other", "Other"],
]);


export default model("ConsolePortTemplate", {
  app: "dcim",
  route: "console-port-templates",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device_type",
  description: "A console port every device of a type has.",
  display: "{name}",
  ordering: ["device_type.manufacturer.name", "device_type.model", "name"],
  features: ["customFields", "changeLogged"],
  fields: {
    device_type: ref.fk("dcim.DeviceType", { relatedName: "consoleporttemplates", required: true, onDelete: "cascade" }),
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
