import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("lower_case", {
  app: "elsewhere",
  route: "Bad Route",
  display: "{name}",
  ordering: [],
  fields: { name: field.string() },
  nested: [],
});
