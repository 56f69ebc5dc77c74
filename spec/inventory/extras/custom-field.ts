import { model, field, choices } from "../../../generator/dsl/index.js";

export const CustomFieldType = choices("CustomFieldType", [
  ["text", "Text"],
  ["integer", "Integer"],
  ["boolean", "Boolean (true/false)"],
  ["date", "Date"],
  ["url", "URL"],
  ["select", "Selection"],
  ["multi-select", "Multiple selection"],
  ["json", "JSON"],
]);

export const CustomFieldFilterLogic = choices("CustomFieldFilterLogic", [
  ["disabled", "Disabled"],
  ["loose", "Loose"],
  ["exact", "Exact"],
]);

// API 1.2/1.3's CustomFieldSerializerVersion12: the api's customFields definitions, so the values
// of every model with the feature are keyed by `name`, typed by `type` and filtered by `filter_logic`.
export default model("CustomField", {
  app: "extras",
  route: "custom-fields",
  description: "A field that users add at run time to the objects of some models: its type, default and validation.",
  display: "{label}",
  ordering: ["weight", "name"],
  features: ["changeLogged"],
  hooks: "extras/custom-field",
  fields: {
    content_types: field.contentTypes({ feature: "customFields", required: true }),
    type: field.choice(CustomFieldType, { required: true }),
    label: field.string({ maxLength: 50 }),
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    // Filled from the label (underscores for dashes) by the hook, as Nautobot's serializer does.
    slug: field.string({ unique: true, maxLength: 50 }),
    description: field.string({ maxLength: 200 }),
    required: field.boolean({ default: false }),
    filter_logic: field.choice(CustomFieldFilterLogic, { default: "loose" }),
    default: field.json({ nullable: true }),
    weight: field.integer({ default: 100, min: 0, max: 32767 }),
    validation_minimum: field.integer({ nullable: true, min: -9223372036854775808, max: 9223372036854775807 }),
    validation_maximum: field.integer({ nullable: true, min: -9223372036854775808, max: 9223372036854775807 }),
    validation_regex: field.string({ maxLength: 500 }),
  },
  nested: ["name"],
  naturalKey: "name",
  // CustomFieldFilterSet: id, content_types, name, required, filter_logic, weight and q.
  filters: {
    q: ["name", "label", "description"],
    exclude: ["type", "label", "slug", "description", "default", "validation_minimum", "validation_maximum", "validation_regex", "created", "last_updated"],
  },
});
