import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Grant", {
  app: "core",
  route: "grants",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    object_types: field.contentTypes({ feature: "all", required: true }),
    groups: ref.m2m("core.Person"),
    users: ref.m2m("core.Team"),
    actions: field.json({ required: true }),
    constraints: field.string({ nullable: true }),
  },
  nested: ["name"],
});
