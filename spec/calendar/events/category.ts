import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Category", {
  app: "events",
  route: "categories",
  description: "An event category: a hierarchical taxonomy term.",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 200 }),
    slug: field.string({ unique: true, maxLength: 200, slugFrom: "name" }),
    // The plugin's term routes refuse an empty description.
    description: field.text({ blank: false }),
    parent: ref.fk("events.Category", { nullable: true, onDelete: "setNull" }),
    // How many events use the term, as WordPress counts a term's posts; kept, as WordPress
    // keeps it (term_taxonomy.count), since every event embedding the term shows it.
    event_count: field.count({ of: "events.Event.categories", stored: true }),
  },
  // Embedded in events: the term with its parent and count.
  nested: ["name", "slug", "description", "parent", "event_count"],
  wordpress: { kind: "term", listKey: "categories", noun: "category", taxonomy: "tribe_events_cat", search: ["name", "description"] },
});
