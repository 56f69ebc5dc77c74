import { model, field } from "../../../generator/dsl/index.js";

export default model("Tag", {
  app: "events",
  route: "tags",
  description: "An event tag: a flat taxonomy term.",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 200 }),
    slug: field.string({ unique: true, maxLength: 200, slugFrom: "name" }),
    // The plugin's term routes refuse an empty description.
    description: field.text({ blank: false }),
    // How many events use the term, as WordPress counts a term's posts; kept, as WordPress
    // keeps it (term_taxonomy.count), since every event embedding the term shows it.
    event_count: field.count({ of: "events.Event.tags", stored: true }),
  },
  // Embedded in events: the term with its parent and count.
  nested: ["name", "slug", "description", "event_count"],
  wordpress: { kind: "term", listKey: "tags", noun: "tag", taxonomy: "post_tag", search: ["name", "description"] },
});
