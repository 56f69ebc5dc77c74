import { model, field } from "../../../../../../../generator/dsl/index.js";

// Every step here would lose data or fail on existing rows, and nothing acknowledges it:
// name narrows, weight becomes required, stock is required with no value for old rows,
// code and the Old model disappear (a rename without renamedFrom looks the same).
export default model("Product", {
  app: "store",
  route: "products",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    price: field.integer({ min: 0, required: true }),
    weight: field.float({ required: true }),
    stock: field.integer({ required: true, min: 0 }),
  },
  nested: ["name"],
});
