import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Maker", {
  app: "core",
  route: "makers",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    parent: ref.fk("core.Maker", { nullable: true }),
  },
  nested: ["name"],
});
