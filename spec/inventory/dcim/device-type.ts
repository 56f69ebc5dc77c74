import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const SubdeviceRole = choices("SubdeviceRole", [["parent", "Parent"], ["child", "Child"]]);

export default model("DeviceType", {
  app: "dcim",
  route: "device-types",
  description: "A make and model of device: its height, depth and the components every device of it has.",
  display: "{manufacturer.name} {model}",
  ordering: ["manufacturer.name", "model"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    manufacturer: ref.fk("dcim.Manufacturer", { required: true, onDelete: "protect" }),
    model: field.string({ required: true, maxLength: 100 }),
    // Unique per manufacturer only, as Nautobot 1.x keeps it.
    slug: field.string({ maxLength: 100, slugFrom: "model" }),
    part_number: field.string({ maxLength: 50, description: "Discrete part number (optional)" }),
    u_height: field.integer({ default: 1, min: 0, max: 32767, label: "Height (U)" }),
    is_full_depth: field.boolean({ default: true, label: "Is full depth", description: "Device consumes both front and rear rack faces" }),
    subdevice_role: field.choice(SubdeviceRole, { blank: true, label: "Parent/child status" }),
    comments: field.text(),
    device_count: field.count({ of: "dcim.Device.device_type" }),
  },
  uniqueTogether: [["manufacturer", "model"], ["manufacturer", "slug"]],
  nested: ["manufacturer", "model", "slug"],
  brief: ["manufacturer", "model", "slug", "device_count"],
  filters: { q: ["model", "part_number", "comments"], related: { instances: { of: "dcim.Device.device_type", key: "name" } } },
});
