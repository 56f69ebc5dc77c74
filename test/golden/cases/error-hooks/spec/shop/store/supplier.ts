import { field, model } from "../../../../../../../generator/dsl/index.js";

// No module at hooks/shop/store/suplier.ts.
export default model("Supplier", {
  app: "store", route: "suppliers", display: "{name}", ordering: ["name"], nested: ["name"],
  hooks: "store/suplier",
  fields: { name: field.string({ required: true, maxLength: 50 }) },
});
