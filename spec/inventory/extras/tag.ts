import { model, field } from "../../../generator/dsl/index.js";

export default model("Tag", {
  app: "extras",
  route: "tags",
  description: "A label that can be applied to objects.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e", format: "color", blank: false }),
    description: field.string({ maxLength: 200 }),
    tagged_items: field.count({ of: "tags" }),
    // API 1.3's TagSerializerVersion13; a tag created through 1.2 applies to every taggable model.
    content_types: field.contentTypes({ feature: "tags", required: true, since: "1.3", default: "all" }),
  },
  nested: ["name", "slug", "color"],
  filters: { q: ["name", "slug", "content_types"] },
});
