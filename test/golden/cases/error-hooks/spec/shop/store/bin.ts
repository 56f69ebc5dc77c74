import { field, model } from "../../../../../../../generator/dsl/index.js";

// An action that creates objects, with no hook module to say what; and one that names no model.
export default model("Bin", {
  app: "store", route: "bins", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  actions: {
    fill: { description: "Fill the bin", response: { type: "object" }, creates: { model: "store.Bin", request: { type: "object" } } },
    spill: { description: "Spill the bin", response: { type: "object" }, creates: { model: "store.Nothing", request: { type: "object" } } },
  },
});
