import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Definition", {
  app: "core",
  route: "definitions",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    type: field.string({ maxLength: 50 }),
    content_types: field.contentTypes({ feature: "tags" }),
  },
  nested: ["name"],
});
