import { model, field } from "../../../../../../../generator/dsl/index.js";

// A registry that clients could write, and without the field its display needs.
export default model("Kind", {
  app: "core",
  route: "kinds",
  display: "{app_label}.{model}",
  ordering: ["app_label", "model"],
  operations: ["list", "retrieve", "create"],
  fields: {
    app_label: field.string({ maxLength: 100, readOnly: true }),
    model: field.integer({ readOnly: true }),
  },
  nested: ["app_label"],
});
