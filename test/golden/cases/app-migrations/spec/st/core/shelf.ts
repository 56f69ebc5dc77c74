import { model, field, choices } from "../../../../../../../generator/dsl/index.js";

export const ShelfStatus = choices("ShelfStatus", [["planned", "Planned"]]);

export default model("Shelf", {
  app: "core",
  route: "shelves",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    status: field.status({ required: true, defaults: ShelfStatus }),
  },
  nested: ["name"],
});
