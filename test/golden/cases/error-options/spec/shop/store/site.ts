import { choices, field, model, ref } from "../../../../../../../generator/dsl/index.js";

const Kind = choices("SiteKind", [["shop", "Shop"], ["depot", "Depot"]]);

// Every option with a value of the wrong type or outside its allowed values, one per line.
export default model("Site", {
  app: "store", route: "sites", display: "{name}", ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: "50", blank: "no" } as never),
    hours: field.integer({ default: "24" } as never),
    floor: field.integer({ min: 0, max: 9, default: 12 }),
    ratio: field.float({ default: true } as never),
    price: field.decimal({ maxDigits: 6, decimalPlaces: 2, default: "1,50" }),
    open: field.boolean({ default: "yes" } as never),
    opened: field.date({ nullable: true, default: "yesterday" }),
    seen: field.datetime({ nullable: true, default: "later" }),
    token: field.uuid({ nullable: true, default: "not-a-uuid" }),
    code: field.string({ maxLength: 3, default: "ABCD" }),
    slug: field.string({ slugFrom: 7, format: "phone", autoNow: "always" } as never),
    motto: field.text({ pattern: { regex: "^a" }, randomHex: -2 } as never),
    kind: field.choice(Kind, { plain: "true" } as never),
    owner: ref.fk("store.Site", { onDelete: "protekt", nullable: 1 } as never),
    friends: ref.m2m("store.Site", { bySlug: "yes" } as never),
    ports: field.list(field.integer({ min: "1" } as never), { default: [80] }),
    placed: field.string({ required: true, backfill: 3, column: "Bad Column" } as never),
  },
  features: ["tags", 3] as never,
  operations: "list" as never,
  brief: "name" as never,
  nested: 5 as never,
  indexes: [{ fields: ["name"], using: "hash" }] as never,
  tree: { parentAsId: "no" } as never,
  filters: { q: "name", aliases: { title: 3 } } as never,
  bare: "false" as never,
} as never);
