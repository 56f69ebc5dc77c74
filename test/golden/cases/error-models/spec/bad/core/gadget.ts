import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// Sound fields, unsound use of them: natural key, operations, filter names, counts, owners.
export default model("Gadget", {
  app: "core",
  route: "gadgets",
  display: "{label}",
  ordering: ["label"],
  fields: {
    label: field.string({ maxLength: 50 }),
    net: field.cidr({ nullable: true }),
    part_of: ref.fk("core.Gadget", { nullable: true }),
    parts: field.count({ of: "core.Gadget.part_of", descendants: true }),
    owner: ref.fk("core.Widget", { fromRequestUser: true, readOnly: true }),
  },
  nested: ["label"],
  naturalKey: "net",
  operations: ["list", "explode" as "list"],
  filters: {
    extra: {
      label: { field: "net", lookup: "net_contained" },
      q: { field: "net", lookup: "net_contains_or_equals" },
    },
  },
});
