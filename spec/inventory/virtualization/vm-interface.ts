import { model, field, ref, choices } from "../../../generator/dsl/index.js";
import { InterfaceMode } from "../dcim/interface-template.js";

export const VMInterfaceStatus = choices("VMInterfaceStatus", [
  ["failed", "Failed"], ["active", "Active"], ["decommissioning", "Decommissioning"], ["maintenance", "Maintenance"], ["planned", "Planned"],
]);

export default model("VMInterface", {
  app: "virtualization",
  route: "interfaces",
  verboseName: "VM interface",
  description: "A network interface of a virtual machine.",
  display: "{name}",
  ordering: ["virtual_machine.name", "name"],
  features: ["tags", "customFields", "notes"],
  hooks: "virtualization/vm-interface",
  fields: {
    virtual_machine: ref.fk("virtualization.VirtualMachine", { relatedName: "interfaces", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    enabled: field.boolean({ default: true }),
    // API 1.2/1.3 show no status (VMInterfaceSerializerVersion12); the hook makes a write that
    // leaves it out active, in every version, as that serializer's validate (which 1.4 inherits).
    status: field.status({ required: true, since: "1.4", default: "active", backfill: "active", defaults: VMInterfaceStatus }),
    parent_interface: ref.fk("virtualization.VMInterface", { relatedName: "child_interfaces", nullable: true, onDelete: "cascade", description: "Assigned parent interface" }),
    bridge: ref.fk("virtualization.VMInterface", { relatedName: "bridged_interfaces", nullable: true, onDelete: "setNull", label: "Bridge interface", description: "Assigned bridge interface" }),
    mtu: field.integer({ nullable: true, min: 1, max: 65536, label: "MTU" }),
    mac_address: field.string({ nullable: true, maxLength: 18, label: "MAC Address" }),
    description: field.string({ maxLength: 200 }),
    mode: field.choice(InterfaceMode, { blank: true, description: "802.1Q mode" }),
    untagged_vlan: ref.fk("ipam.VLAN", { relatedName: "vminterfaces_as_untagged", nullable: true, onDelete: "setNull" }),
    tagged_vlans: ref.m2m("ipam.VLAN", { relatedName: "vminterfaces_as_tagged" }),
  },
  uniqueTogether: [["virtual_machine", "name"]],
  naturalKey: "name",
  nested: ["virtual_machine", "name"],
  filters: {
    q: ["name"],
    via: { cluster: "virtual_machine.cluster" },
    present: { has_tagged_vlans: "tagged_vlans" },
    related: {
      child_interfaces: { of: "virtualization.VMInterface.parent_interface", key: "name" },
      bridged_interfaces: { of: "virtualization.VMInterface.bridge", key: "name" },
    },
  },
});
