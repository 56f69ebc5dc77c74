import { model, field, ref, choices } from "../../../generator/dsl/index.js";

// Shared by front and rear ports and their templates.
export const PortType = choices("PortType", [
  ["8p8c", "8P8C"], ["8p6c", "8P6C"], ["8p4c", "8P4C"], ["8p2c", "8P2C"], ["6p6c", "6P6C"], ["6p4c", "6P4C"],
  ["6p2c", "6P2C"], ["4p4c", "4P4C"], ["4p2c", "4P2C"], ["gg45", "GG45"], ["tera-4p", "TERA 4P"],
  ["tera-2p", "TERA 2P"], ["tera-1p", "TERA 1P"], ["110-punch", "110 Punch"], ["bnc", "BNC"],
  ["f", "F Connector"], ["n", "N Connector"], ["mrj21", "MRJ21"], ["fc", "FC"], ["lc", "LC"],
  ["lc-pc", "LC/PC"], ["lc-upc", "LC/UPC"], ["lc-apc", "LC/APC"], ["lsh", "LSH"], ["lsh-pc", "LSH/PC"],
  ["lsh-upc", "LSH/UPC"], ["lsh-apc", "LSH/APC"], ["mpo", "MPO"], ["mtrj", "MTRJ"], ["sc", "SC"],
  ["sc-pc", "SC/PC"], ["sc-upc", "SC/UPC"], ["sc-apc", "SC/APC"], ["st", "ST"], ["cs", "CS"], ["sn", "SN"],
  ["sma-905", "SMA 905"], ["sma-906", "SMA 906"], ["urm-p2", "URM-P2"], ["urm-p4", "URM-P4"],
  ["urm-p8", "URM-P8"], ["splice", "Splice"], ["other", "Other"],
]);


export default model("RearPortTemplate", {
  app: "dcim",
  route: "rear-port-templates",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "device_type",
  description: "A rear port every device of a type has, with its positions.",
  display: "{name}",
  ordering: ["device_type.manufacturer.name", "device_type.model", "name"],
  features: ["customFields", "changeLogged"],
  fields: {
    device_type: ref.fk("dcim.DeviceType", { relatedName: "rearporttemplates", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 64 }),
    label: field.string({ maxLength: 64, description: "Physical label" }),
    type: field.choice(PortType, { required: true }),
    positions: field.integer({ default: 1, min: 1, max: 1024 }),
    description: field.string({ maxLength: 200 }),
  },
  uniqueTogether: [["device_type", "name"]],
  nested: ["name"],
  // Nautobot names the device type filter devicetype_id here (the Ansible collection uses it).
  filters: { q: ["name", "label", "description"], aliases: { devicetype: "device_type" } },
});
