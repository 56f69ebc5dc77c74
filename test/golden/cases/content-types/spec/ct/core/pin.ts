import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// A generic reference to a box or a group; each counts the pins on it.
export default model("Pin", {
  app: "core",
  route: "pins",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    target_type: field.contentType({ models: ["core.Box", "core.Group"] }),
    target_id: field.uuid({ nullable: true }),
    target: ref.generic({ type: "target_type", id: "target_id" }),
  },
  nested: ["name"],
});
