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

// The api's customFields definitions: the values of every model with the feature are kept by
// `name` (shown by `name` in API 1.2/1.3 and by `slug` from 1.4), typed by `type` and filtered by
// `filter_logic` (`cf_<name>` in every version). API 1.2/1.3 show CustomFieldSerializerVersion12
// (`name`; `label` and `slug` optional), 1.4 on CustomFieldSerializer (no `name`, which a create
// takes from the slug; `label` and `slug` required).
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
    label: field.string({ maxLength: 50, required: true, requiredSince: "1.4" }),
    name: field.string({ required: true, unique: true, maxLength: 50, until: "1.3" }),
    // Filled from the label (underscores for dashes) by the hook, as Nautobot's 1.2 serializer does.
    slug: field.string({ unique: true, maxLength: 50, required: true, requiredSince: "1.4" }),
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
