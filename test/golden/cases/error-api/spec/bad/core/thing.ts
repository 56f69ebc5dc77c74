import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Thing", {
  app: "core",
  route: "things",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ since: "3.0" }),
  },
  nested: ["name"],
});
