import { field, model } from "../../../../../../../generator/dsl/index.js";

export default model("Tag", {
  app: "events",
  route: "tags",
  description: "A flat taxonomy of events.",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    description: field.text(),
    // Counted through the events' join table.
    event_count: field.count({ of: "events.Event.tags", stored: true }),
  },
  nested: ["name", "slug", "description", "event_count"],
  wordpress: { kind: "term", listKey: "tags", noun: "tag", taxonomy: "post_tag" },
});
