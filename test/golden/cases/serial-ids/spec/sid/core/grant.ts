import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Grant", {
  app: "core",
  route: "grants",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    enabled: field.boolean({ default: true }),
    object_types: field.contentTypes({ feature: "all", required: true }),
    groups: ref.m2m("core.Team", { keyWhenNested: "name" }),
    users: ref.m2m("core.Person", { keyWhenNested: "username" }),
    actions: field.json({ required: true, schema: { type: "array", items: { type: "string" } } }),
    constraints: field.json({ nullable: true }),
  },
  nested: ["name", "groups", "users"],
});
