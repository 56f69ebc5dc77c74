import { model, field, ref, choices } from "../../../../../../../generator/dsl/index.js";

export const ItemKind = choices("ItemKind", [["small", "Small"], ["large", "Large"]]);

export default model("Item", {
  app: "core",
  route: "items",
  verboseName: "Stock Item",
  description: "Every scalar type, a choice, a foreign key, a many-to-many and every feature.",
  display: "{group.name}: {serial|last:4}",
  ordering: ["group", "-serial"],
  features: ["tags", "customFields", "changeLogged"],
  hooks: "core/item",
  fields: {
    external_id: field.uuid({ nullable: true }),
    serial: field.string({ required: true, unique: true, maxLength: 20, pattern: { regex: "^[A-Z0-9]+$", message: "Upper-case letters and digits only." } }),
    notes: field.text({ description: "Free text.", optIn: true, searchIndexed: true }),
    quantity: field.integer({ min: 0, max: 1000, default: 1 }),
    weight: field.float({ nullable: true }),
    price: field.decimal({ nullable: true, maxDigits: 10, decimalPlaces: 2 }),
    active: field.boolean({ default: true }),
    bought: field.date({ nullable: true }),
    seen: field.datetime({ nullable: true }),
    extra: field.json({ nullable: true }),
    network: field.cidr({ nullable: true }),
    address: field.ip({ nullable: true }),
    family: field.ipFamily({ from: "network" }),
    secret: field.password({ writeOnly: true, nullable: true, maxLength: 64 }),
    email: field.string({ maxLength: 100, format: "email", since: "1.1" }),
    kind: field.choice(ItemKind, { default: "small" }),
    group: ref.fk("core.Group", { required: true }),
    related: ref.m2m("core.Tag"),
    serial_length: field.computed({ schema: { type: "integer" }, description: "Computed by the hook module." }),
  },
  nested: ["serial"],
  brief: ["serial", "kind"],
  uniqueTogether: [["group", "notes"]],
  filters: {
    q: ["serial", "notes"],
    qAddress: "network",
    extra: { within: { field: "network", lookup: "net_contained" } },
    exclude: ["extra"],
  },
});
