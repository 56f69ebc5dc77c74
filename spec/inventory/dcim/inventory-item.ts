import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("InventoryItem", {
  app: "dcim",
  route: "inventory-items",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device",
  description: "A serialised piece of hardware inside a device (a line card, a power supply); items nest.",
  display: "{name}",
  ordering: ["device", "parent", "name"],
  features: ["tree", "tags", "customFields", "notes", "changeLogged"],
  tree: { parentAsId: true, relatedName: "child_items" },
  fields: {
    device: ref.fk("dcim.Device", { relatedName: "inventoryitems", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    manufacturer: ref.fk("dcim.Manufacturer", { nullable: true, onDelete: "protect" }),
    part_id: field.string({ maxLength: 50, label: "Part ID", description: "Manufacturer-assigned part identifier" }),
    serial: field.string({ maxLength: 255, label: "Serial number" }),
    asset_tag: field.string({ nullable: true, unique: true, verboseName: "Asset tag", maxLength: 50, description: "A unique tag used to identify this item" }),
    discovered: field.boolean({ default: false, description: "This item was automatically discovered" }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device", "parent", "name"]],
  nested: ["device", "name", "_depth"],
  filters: { q: ["name", "label", "part_id", "serial", "asset_tag", "description"], via: { site: "device.site", region: "device.site.region" } },
});
