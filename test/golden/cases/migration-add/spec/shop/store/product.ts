import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Product", {
  app: "store",
  route: "products",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    price: field.integer({ min: 0, required: true }),
    weight: field.float({ nullable: true }),
    supplier: ref.fk("store.Supplier", { nullable: true, onDelete: "setNull" }),
  },
  nested: ["name"],
});
