import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Platform", {
  app: "dcim",
  route: "platforms",
  description: "The software a device runs, and how automation reaches it.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    manufacturer: ref.fk("dcim.Manufacturer", { nullable: true, onDelete: "protect" }),
    napalm_driver: field.string({ maxLength: 50, label: "NAPALM driver" }),
    napalm_args: field.json({ nullable: true, label: "NAPALM arguments" }),
    description: field.string({ maxLength: 200 }),
    device_count: field.count({ of: "dcim.Device.platform" }),
    virtualmachine_count: field.count({ of: "virtualization.VirtualMachine.platform" }),
  },
  nested: ["name", "slug"],
  brief: ["name", "slug", "device_count", "virtualmachine_count"],
  filters: { q: ["name", "slug"], related: { devices: { of: "dcim.Device.platform", key: "name" }, virtual_machines: { of: "virtualization.VirtualMachine.platform", key: "name" } } },
});
