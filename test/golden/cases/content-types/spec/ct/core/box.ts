import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Box", {
  app: "core",
  route: "boxes",
  display: "{name}",
  ordering: ["name"],
  features: ["tags"],
  fields: { name: field.string({ required: true, maxLength: 50 }), pin_count: field.count({ of: "core.Pin.target" }) },
  nested: ["name"],
});
