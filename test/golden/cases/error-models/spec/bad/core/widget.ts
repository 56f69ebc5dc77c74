import { model, field, ref, choices, type FieldSpec, type FilterLookup } from "../../../../../../../generator/dsl/index.js";

const Size = choices("Size", [["s", "Small"], ["l", "Large"]]);

// One field or setting per field-level and model-level message.
export default model("Widget", {
  app: "core",
  route: "widgets",
  display: "{nosuch} {owner.name} {name|upper} {name|display} {amount|ranges}[ ({code}",
  ordering: ["-missing"],
  features: ["tree", "tags"],
  fields: {
    BadName: field.string(),
    url: field.string(),
    parent: ref.fk("core.Widget"),
    owner: ref.fk("core.Nobody"),
    early: field.string({ since: "9.9" }),
    locked: field.string({ required: true, readOnly: true }),
    odd: { kind: "scalar", type: "complex" } as unknown as FieldSpec,
    slug: field.string({ slugFrom: "title" }),
    code: field.string({ pattern: { regex: "([", message: "never" } }),
    empty: field.choice(choices("Empty", [])),
    size: field.choice(Size, { default: "huge" }),
    fam: field.ipFamily({ from: "code" }),
    c1: field.count({ of: "Widget.parent" }),
    c2: field.count({ of: "core.Nobody.widget" }),
    c3: field.count({ of: "core.Person.username" }),
    checker: field.string({ maxLength: 5, unique: true, uniqueCheckedBy: "nobody" as "django" }),
    message: field.string({ maxLength: 5, uniqueMessage: "Taken." }),
    weird: { kind: "mystery" } as unknown as FieldSpec,
    name: field.string(),
    net: field.cidr(),
    amount: field.integer(),
    cost: field.decimal({ nullable: true, maxDigits: 4, decimalPlaces: 6 }),
    ratio: field.float({ nullable: true, decimalPlaces: 2 }),
    words: field.list(field.string(), { required: true }),
    counts: field.list(field.integer({ min: 1, nullable: true })),
    shade: field.choice(Size, { default: "s", plain: true, plainWhenNested: true }),
  },
  nested: ["ghost"],
  brief: ["phantom"],
  naturalKey: "nokey",
  filters: {
    q: ["absent", "net"],
    extra: {
      bad1: { field: "nofield", lookup: "net_contained" },
      bad2: { field: "name", lookup: "net_contained" },
      bad3: { field: "net", lookup: "nope" as FilterLookup },
      bad4: { field: "name", lookup: "contains" },
    },
  },
  uniqueTogether: [["name", "zzz"], { fields: ["name"], checkedBy: "someone" as "django" }],
});
