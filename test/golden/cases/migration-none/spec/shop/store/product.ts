import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Product", {
  app: "store",
  route: "products",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    price: field.integer({ min: 0, required: true }),
  },
  nested: ["name"],
});
