import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Supplier", {
  app: "store",
  route: "suppliers",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
  },
  nested: ["name"],
});
