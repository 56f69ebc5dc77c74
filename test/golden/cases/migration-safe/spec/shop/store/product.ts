import { model, field } from "../../../../../../../generator/dsl/index.js";

// name → title keeps its data (RENAME) and widens; weight becomes required with a value for
// rows without one; stock and label are new and required, filled on existing rows.
export default model("Product", {
  app: "store",
  route: "products",
  display: "{title}",
  ordering: ["title"],
  fields: {
    title: field.string({ required: true, unique: true, maxLength: 200, renamedFrom: "name" }),
    price: field.integer({ min: 0, required: true }),
    weight: field.float({ required: true, backfill: 0 }),
    stock: field.integer({ required: true, min: 0, backfill: 0 }),
    label: field.string({ required: true, maxLength: 20, backfill: "unlabelled" }),
  },
  nested: ["title"],
});
