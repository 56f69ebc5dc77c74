import { model, field } from "../../../generator/dsl/index.js";

export default model("ConfigContextSchema", {
  app: "extras",
  route: "config-context-schemas",
  description: "A JSON Schema that config context data and devices' local context data must follow.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  hooks: "extras/config-context-schema",
  fields: {
    name: field.string({ required: true, maxLength: 200 }),
    slug: field.string({ unique: true, maxLength: 200, slugFrom: "name" }),
    // The Git repository that loaded it (runtime/features/git/), else null; `owner` (its nested form in Nautobot) stays null.
    owner_content_type: field.string({ nullable: true, readOnly: true, maxLength: 100 }),
    owner_object_id: field.uuid({ nullable: true, readOnly: true }),
    owner: field.json({ nullable: true, readOnly: true }),
    description: field.string({ maxLength: 200 }),
    data_schema: field.json({ required: true, schema: { type: "object" }, description: "A JSON Schema document which is used to validate a config context object." }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "description"], exclude: ["owner", "data_schema"] },
});
