import { model, field } from "../../../../../../../generator/dsl/index.js";

// Every step here would lose data or fail on existing rows, and nothing acknowledges it:
// name narrows, weight becomes required, stock and label are required with no value for old
// rows (the '' a required string's column defaults to is no value of it), code and the Old
// model disappear (a rename without renamedFrom looks the same).
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
    label: field.string({ required: true, maxLength: 20 }),
  },
  nested: ["name"],
});
