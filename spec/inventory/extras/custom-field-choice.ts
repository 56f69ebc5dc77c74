import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("CustomFieldChoice", {
  app: "extras",
  route: "custom-field-choices",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "field",
  description: "One value a select or multi-select custom field offers.",
  display: "{value}",
  ordering: ["field", "weight", "value"],
  features: ["changeLogged"],
  hooks: "extras/custom-field-choice",
  fields: {
    field: ref.fk("extras.CustomField", { relatedName: "choices", required: true, onDelete: "cascade" }),
    value: field.string({ required: true, maxLength: 100 }),
    weight: field.integer({ default: 100, min: 0, max: 32767 }),
  },
  nested: ["value"],
  uniqueTogether: [["field", "value"]],
  // CustomFieldChoiceFilterSet (a BaseFilterSet: no created or last_updated filters).
  filters: { q: ["value"], exclude: ["created", "last_updated"] },
});
