import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// Sound fields, unsound use of them: natural key, change-log relation, operations, filter names, counts, owners.
export default model("Gadget", {
  app: "core",
  route: "gadgets",
  display: "{label}",
  ordering: ["label"],
  fields: {
    label: field.string({ maxLength: 50 }),
    net: field.cidr({ nullable: true, searchIndexed: true }),
    part_of: ref.fk("core.Gadget", { nullable: true }),
    parts: field.count({ of: "core.Gadget.part_of", descendants: true }),
    kept: field.count({ of: "core.Gadget.part_of", descendants: true, stored: true }),
    owner: ref.fk("core.Widget", { fromRequestUser: true, readOnly: true }),
    either: ref.firstSet(["part_of", "owner"]),
    alone: ref.firstSet(["label"]),
    holder: ref.reverse("core.Gadget.part_of", { through: { show: "label", as: "Bad Key" } }),
  },
  nested: ["label"],
  naturalKey: "net",
  changeLogRelated: "label",
  operations: ["list", "explode" as "list"],
  filters: {
    extra: {
      label: { field: "net", lookup: "net_contained" },
      q: { field: "net", lookup: "net_contains_or_equals" },
    },
    membership: { has_parts: "core.Widget.owner" },
    q: ["label", "core.Widget.owner.label", "core.Gadget.part_of.nothing", "core.Gadget.part_of.parts"],
    via: { grand: "part_of.part_of.owner", far: "part_of.label.owner" },
    methods: { odd: { takes: "core.Nothing" }, picky: { takes: "boolean", choices: ["a"] } },
  },
});
