import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Thing", {
  app: "core",
  route: "things",
  display: "{name}",
  ordering: [],
  fields: { name: field.string() },
  nested: [],
});
