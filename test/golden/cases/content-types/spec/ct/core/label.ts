import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Label", {
  app: "core",
  route: "labels",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    tagged_items: field.count({ of: "tags" }),
    // From 1.1 shown and required; creates through 1.0, and labels already there, get every tagged model.
    content_types: field.contentTypes({ feature: "tags", required: true, since: "1.1", default: "all" }),
    // Any of the listed models, or none when a create leaves it out.
    watched: field.contentTypes({ models: ["core.Group", "core.Item"] }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "content_types"] },
});
