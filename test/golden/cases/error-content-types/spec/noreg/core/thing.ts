import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Thing", {
  app: "core",
  route: "things",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    kinds: field.contentTypes({ models: ["core.Thing"] }),
    tagged: field.count({ of: "tags" }),
  },
  nested: ["name"],
});
