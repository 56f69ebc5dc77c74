import { model, field, choices } from "../../../../../../../generator/dsl/index.js";

export const BoxStatus = choices("BoxStatus", [["active", "Active"], ["planned", "Planned"]]);

export default model("Box", {
  app: "core",
  route: "boxes",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    status: field.status({ required: true, defaults: BoxStatus }),
  },
  nested: ["name"],
});
