import { field, model } from "../../../../../../../generator/dsl/index.js";

export default model("Tag", {
  app: "events", route: "tags", display: "{name}", ordering: ["name"], nested: ["name", "slug", "description"],
  fields: { name: field.string({ required: true, maxLength: 50 }), slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }), description: field.text() },
  wordpress: { kind: "term", listKey: "tags", noun: "tag" },
});
