import { model, field } from "../../../../../../../generator/dsl/index.js";

// Typos and wrong types in the options: each must be reported, none may generate.
export default model("Tag", {
  app: "events",
  route: "tags",
  description: "A term with misspelt options.",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    // Embedded terms show their counts: left out of the nested form, it would be missing.
    uses: field.count({ of: "events.Event.tag" }),
  },
  nested: ["name"],
  wordpress: { kind: "term", listKey: "Tags", noun: "tag", serach: ["name"], search: ["name", "title"], dropEmpty: "yes" } as never,
});
