import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("DeviceBay", {
  app: "dcim",
  route: "device-bays",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A bay of a device that holds a child device.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/device-bay",
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "devicebays", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    // A one-to-one link the serializer declares itself: Django's model validation checks it.
    installed_device: ref.fk("dcim.Device", { relatedName: "parent_bay", oneToOne: true, nullable: true, unique: true, uniqueCheckedBy: "django", onDelete: "setNull" }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device", "name"]],
  nested: ["device", "name"],
  filters: { q: ["name", "label", "description"], via: { site: "device.site" } },
});
