import { field, model } from "../../../../../../../generator/dsl/index.js";

// A computed field with no hook module to compute it.
export default model("Warehouse", {
  app: "store", route: "warehouses", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    stock: field.computed({ schema: { type: "integer" } }),
  },
});
