import { field, model } from "../../../../../../../generator/dsl/index.js";

export default model("Product", {
  app: "store", route: "products", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
});
