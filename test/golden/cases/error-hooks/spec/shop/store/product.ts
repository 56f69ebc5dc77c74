import { field, model } from "../../../../../../../generator/dsl/index.js";

// The module exists but one export is misspelt: the engine would never call it.
export default model("Product", {
  app: "store", route: "products", display: "{name}", ordering: ["name"], nested: ["name"],
  hooks: "store/product",
  fields: { name: field.string({ required: true, maxLength: 50 }) },
});
