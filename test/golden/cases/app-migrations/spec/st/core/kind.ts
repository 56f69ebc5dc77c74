import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Kind", {
  app: "core",
  route: "kinds",
  display: "{app_labeled_name}",
  ordering: ["app_label", "model"],
  operations: ["list", "retrieve"],
  fields: {
    app_label: field.string({ maxLength: 100, readOnly: true }),
    model: field.string({ maxLength: 100, readOnly: true }),
    app_labeled_name: field.string({ maxLength: 200, readOnly: true, writeOnly: true }),
  },
  nested: ["app_label", "model"],
  filters: { q: ["model"] },
});
