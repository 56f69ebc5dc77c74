import { model, field, ref, choices } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";
import { InterfaceMode, InterfaceType } from "./interface-template.js";

const cableEnds = cableEndFilters(true);

export const InterfaceStatus = choices("InterfaceStatus", [
  ["planned", "Planned"], ["failed", "Failed"], ["active", "Active"], ["decommissioning", "Decommissioning"], ["maintenance", "Maintenance"],
]);

export default model("Interface", {
  app: "dcim",
  route: "interfaces",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A network interface of a device.",
  display: "{name}",
  ordering: ["device.name", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/interface",
  fields: {
    device: ref.fk("dcim.Device", { required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    // API 1.2/1.3 show no status (InterfaceSerializerVersion12): creates through them get active;
    // existing interfaces became active when Nautobot added the field.
    status: field.status({ required: true, since: "1.4", default: "active", backfill: "active", defaults: InterfaceStatus }),
    type: field.choice(InterfaceType, { required: true }),
    enabled: field.boolean({ default: true }),
    parent_interface: ref.fk("dcim.Interface", { relatedName: "child_interfaces", nullable: true, onDelete: "setNull", description: "Assigned parent interface" }),
    bridge: ref.fk("dcim.Interface", { relatedName: "bridged_interfaces", nullable: true, onDelete: "setNull", description: "Assigned bridge interface" }),
    lag: ref.fk("dcim.Interface", { relatedName: "member_interfaces", nullable: true, onDelete: "setNull", label: "Parent LAG", description: "Assigned LAG interface" }),
    mtu: field.integer({ nullable: true, min: 1, max: 65536 }),
    mac_address: field.string({ nullable: true, maxLength: 18, label: "MAC Address" }),
    mgmt_only: field.boolean({ default: false, label: "Management only", description: "This interface is used only for out-of-band management" }),
    description: field.string({ maxLength: 200 }),
    mode: field.choice(InterfaceMode, { blank: true, description: "802.1Q mode" }),
    untagged_vlan: ref.fk("ipam.VLAN", { relatedName: "interfaces_as_untagged", nullable: true, onDelete: "setNull" }),
    tagged_vlans: ref.m2m("ipam.VLAN", { relatedName: "interfaces_as_tagged" }),
    ...cableEnd(),
    ...pathEndpoint(),
    count_ipaddresses: field.count({ of: "ipam.IPAddress.assigned_object" }),
  },
  actions: {
    ...traceAction,
    "connected-device": {
      onApp: true,
      description: "The device connected to a peer device's interface, in full (an empty answer when none is)",
      parameters: { peer_device: { description: "The name of the peer device", required: true }, peer_interface: { description: "The name of the peer interface", required: true } },
      response: { type: "object", additionalProperties: {} },
    },
  },
  uniqueTogether: [["device", "name"]],
  // Filters take an interface by id or name (every interface of that name), as Nautobot's.
  naturalKey: "name",
  nested: ["device", "name", "cable"],
  filters: {
    q: ["name", "label", "description"],
    via: { site: "device.site" },
    ...cableEnds,
    present: { ...cableEnds.present, has_tagged_vlans: "tagged_vlans" },
    // Nautobot's own device filters replace the reference's: a virtual chassis master's name or
    // id also finds its members' interfaces, and a name that matches no device finds nothing.
    exclude: [...(cableEnds.exclude ?? []), "device"],
    methods: {
      device: { takes: "string" },
      device_id: { takes: "uuid" },
      // Interfaces with this VLAN untagged or tagged, by id (`vlan_id`) or by number (`vlan`).
      vlan_id: { takes: "uuid" },
      vlan: { takes: "number" },
    },
  },
});
