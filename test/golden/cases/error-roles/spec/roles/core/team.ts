import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// Serial ids cannot carry tags, and no generic reference may name the model.
export default model("Team", {
  app: "core",
  route: "teams",
  idType: "serial",
  display: "{name}",
  ordering: ["name"],
  features: ["tags"],
  fields: {
    name: field.string({ required: true, maxLength: 150 }),
    members: ref.m2m("core.Person", { keyWhenNested: "nickname" }),
    owners: ref.m2m("core.Person", { keyWhenNested: "username", bySlug: true }),
  },
  nested: ["name"],
});
