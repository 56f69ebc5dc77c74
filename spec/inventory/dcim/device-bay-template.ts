import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("DeviceBayTemplate", {
  app: "dcim",
  route: "device-bay-templates",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device_type",
  description: "A bay every device of a type has, for a child device.",
  display: "{name}",
  ordering: ["device_type.manufacturer.name", "device_type.model", "name"],
  features: ["customFields", "changeLogged"],
  fields: {
    device_type: ref.fk("dcim.DeviceType", { relatedName: "devicebaytemplates", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device_type", "name"]],
  nested: ["name"],
  // Nautobot names the device type filter devicetype_id here (the Ansible collection uses it).
  filters: { q: ["name", "label", "description"], aliases: { devicetype: "device_type" } },
});
