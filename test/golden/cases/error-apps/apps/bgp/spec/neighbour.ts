import { model, field } from "../../../../../../../generator/dsl/index.js";

// Its app is the app's label, not another's.
export default model("Neighbour", {
  app: "store", route: "neighbours", display: "{name}", ordering: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  nested: ["name"],
});
