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
  },
  nested: ["name"],
  wordpress: { kind: "term", listKey: "tags", noun: "tag", taxonomy: "post_tag" },
});
