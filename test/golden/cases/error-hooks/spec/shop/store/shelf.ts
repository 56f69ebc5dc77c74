import { field, model } from "../../../../../../../generator/dsl/index.js";

// A method filter with no hook module to give its condition.
export default model("Shelf", {
  app: "store", route: "shelves", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  filters: { methods: { empty: { takes: "boolean" } } },
});
