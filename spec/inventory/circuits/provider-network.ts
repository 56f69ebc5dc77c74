import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("ProviderNetwork", {
  app: "circuits",
  route: "provider-networks",
  description: "A provider's network a circuit may end in, where the far end is not modelled.",
  display: "{provider.name} {name}",
  ordering: ["provider", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    provider: ref.fk("circuits.Provider", { required: true, onDelete: "protect" }),
    name: field.string({ required: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    comments: field.text(),
  },
  uniqueTogether: [["provider", "name"]],
  nested: ["name", "slug"],
  filters: { q: ["name", "description", "comments"] },
});
