import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Item", {
  app: "core",
  route: "items",
  display: "{name}",
  ordering: ["name"],
  features: ["tags"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  nested: ["name"],
});
