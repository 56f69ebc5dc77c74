import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("InterfaceConnection", {
  app: "dcim",
  route: "interface-connections",
  description: "Interfaces whose traced path ends at another interface, each pair once (Nautobot's interface connections).",
  display: "{interface_a.name}",
  ordering: ["interface_a_device", "interface_a"],
  bare: true,
  operations: ["list"],
  // The lower id of a pair stands for it, as Nautobot's InterfaceConnectionViewSet does.
  view: `SELECT i.id, i.id AS interface_a_id, i.connected_endpoint_id AS interface_b_id, i.connected_endpoint_reachable, i.device_id AS interface_a_device_id
FROM dcim_interface i
WHERE i.connected_endpoint_type = 'dcim.interface' AND i.id < i.connected_endpoint_id`,
  fields: {
    interface_a: ref.fk("dcim.Interface", { required: true, onDelete: "cascade" }),
    interface_b: ref.fk("dcim.Interface", { required: true, onDelete: "cascade" }),
    connected_endpoint_reachable: field.boolean({ nullable: true }),
    // The first interface's device, for the filters.
    interface_a_device: ref.fk("dcim.Device", { readOnly: true, writeOnly: true, onDelete: "cascade" }),
  },
  nested: "all",
  filters: {
    exclude: ["interface_a", "interface_b", "connected_endpoint_reachable"],
    via: { site: "interface_a_device.site", device: ["interface_a_device"] },
  },
});
