import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Bench", {
  app: "store", route: "benches", display: "{name}", ordering: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  nested: ["name"],
});
