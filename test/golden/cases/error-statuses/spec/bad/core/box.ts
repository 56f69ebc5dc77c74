import { model, field, choices } from "../../../../../../../generator/dsl/index.js";

// A default the status model has no row for, and one named otherwise there.
export const BoxStatus = choices("BoxStatus", [["active", "Live"], ["gone", "Gone"]]);

export default model("Box", {
  app: "core",
  route: "boxes",
  display: "{name} {status|display}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    status: field.status({ required: true, defaults: BoxStatus, colour: "red" } as never),
  },
  nested: ["name"],
});
