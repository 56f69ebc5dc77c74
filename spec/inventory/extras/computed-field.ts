import { model, field } from "../../../generator/dsl/index.js";

export default model("ComputedField", {
  app: "extras",
  route: "computed-fields",
  description: "A read-only field of every object of one content type, rendered from a Jinja2 template (shown with include=computed_fields).",
  display: "{label}",
  ordering: ["weight", "slug"],
  features: ["changeLogged", "notes"],
  fields: {
    // Nautobot's slugify_dashes_to_underscores: the slug is a template variable name.
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "label", slugUnderscores: true }),
    label: field.string({ required: true, maxLength: 100 }),
    description: field.string({ maxLength: 200 }),
    content_type: field.contentType({ feature: "customFields", required: true }),
    template: field.text({ required: true, maxLength: 500 }),
    fallback_value: field.string({ maxLength: 500 }),
    weight: field.integer({ default: 100, min: 0, max: 32767 }),
  },
  uniqueTogether: [["content_type", "label"]],
  nested: ["content_type", "label"],
  filters: {
    q: ["label", "description", "template", "fallback_value"],
    exclude: ["label", "description"],
  },
});
