import { model, field, ref } from "../../../generator/dsl/index.js";
import { DynamicGroupOperator } from "./dynamic-group.js";

// Nautobot's DynamicGroupMembership (a BaseModel): a child group under a parent group, with the
// operator that combines its members and the weight that orders it among its siblings.
export default model("DynamicGroupMembership", {
  app: "extras",
  route: "dynamic-group-memberships",
  description: "A dynamic group's place among the children of another, and how its members combine.",
  display: "{parent_group.name} > {operator} ({weight}) > {group.name}",
  ordering: ["parent_group", "weight", "group"],
  hooks: "extras/dynamic-group-membership",
  fields: {
    group: ref.fk("extras.DynamicGroup", { relatedName: "+", required: true, onDelete: "cascade" }),
    parent_group: ref.fk("extras.DynamicGroup", { relatedName: "dynamic_group_memberships", required: true, onDelete: "cascade" }),
    operator: field.choice(DynamicGroupOperator, { required: true, plain: true }),
    weight: field.integer({ required: true, min: 0, max: 32767 }),
  },
  uniqueTogether: [["group", "parent_group", "operator", "weight"]],
  nested: ["group", "parent_group", "operator", "weight"],
  // `q` searches the operator and both groups' names and slugs, as Nautobot's SearchFilter.
  filters: { methods: { q: { takes: "string" } } },
});
