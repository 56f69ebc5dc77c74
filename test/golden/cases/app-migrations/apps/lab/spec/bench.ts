import { model, field, choices } from "../../../../../../../generator/dsl/index.js";

export const BenchStatus = choices("BenchStatus", [["active", "Active"]]);

export default model("Bench", {
  app: "lab", route: "benches", display: "{name}", ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    status: field.status({ required: true, defaults: BenchStatus }),
  },
  nested: ["name"],
});
