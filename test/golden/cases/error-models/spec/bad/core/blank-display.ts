import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Blank", {
  app: "core",
  route: "blanks",
  display: "",
  ordering: [],
  fields: { name: field.string() },
  nested: [],
});
