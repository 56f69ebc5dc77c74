import { field, model } from "../../../../../../../generator/dsl/index.js";

// hooks/shop/lib/ holds the helpers hook modules share; none of them is a model's hook module.
export default model("Aisle", {
  app: "store", route: "aisles", display: "{name}", ordering: ["name"], nested: ["name"],
  hooks: "lib/stock",
  fields: { name: field.string({ required: true, maxLength: 50 }) },
});
