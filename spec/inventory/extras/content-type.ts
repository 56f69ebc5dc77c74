import { model, field } from "../../../generator/dsl/index.js";

// The API's models as Nautobot's content types (`/api/extras/content-types/`): the api's
// contentTypes registry, so migrations write its rows, one per model, with ids that never change.
export default model("ContentType", {
  app: "extras",
  route: "content-types",
  description: "A model of the API, as content-type fields name it (`app_label.model`).",
  display: "{app_labeled_name}",
  ordering: ["app_label", "model"],
  operations: ["list", "retrieve"],
  fields: {
    app_label: field.string({ maxLength: 100, readOnly: true }),
    model: field.string({ maxLength: 100, readOnly: true }),
    // Django's `app_labeled_name` (`DCIM | device type`): what display shows, not a field of its own.
    app_labeled_name: field.string({ maxLength: 200, readOnly: true, writeOnly: true }),
  },
  nested: ["app_label", "model"],
  uniqueTogether: [["app_label", "model"]],
  filters: { q: ["app_label", "model"] },
});
