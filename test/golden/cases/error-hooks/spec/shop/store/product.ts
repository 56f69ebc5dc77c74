import { field, model } from "../../../../../../../generator/dsl/index.js";

// The module exists but one export is misspelt, and it gives both save checks: the engine
// would never call either of the two.
export default model("Product", {
  app: "store", route: "products", display: "{name}", ordering: ["name"], nested: ["name"],
  hooks: "store/product",
  fields: { name: field.string({ required: true, maxLength: 50 }) },
});
