import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Label", {
  app: "core",
  route: "labels",
  display: "{name}",
  ordering: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }), slug: field.string({ maxLength: 50 }) },
  nested: ["name"],
});
