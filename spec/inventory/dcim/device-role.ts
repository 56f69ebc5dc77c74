import { model, field } from "../../../generator/dsl/index.js";

export default model("DeviceRole", {
  app: "dcim",
  route: "device-roles",
  description: "The function a device (or virtual machine) serves.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e", format: "color", blank: false }),
    vm_role: field.boolean({ default: true, label: "VM Role", description: "Virtual machines may be assigned to this role" }),
    description: field.string({ maxLength: 200 }),
    device_count: field.count({ of: "dcim.Device.device_role" }),
    virtualmachine_count: field.count({ of: "virtualization.VirtualMachine.role" }),
  },
  nested: ["name", "slug"],
  brief: ["name", "slug", "device_count", "virtualmachine_count"],
  filters: { q: ["name", "slug"], related: { devices: { of: "dcim.Device.device_role", key: "name" }, virtual_machines: { of: "virtualization.VirtualMachine.role", key: "name" } } },
});
