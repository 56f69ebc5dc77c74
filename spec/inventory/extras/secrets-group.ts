import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("SecretsGroup", {
  app: "extras",
  route: "secrets-groups",
  description: "Secrets that serve together (a username and a password), each for an access type and a secret type.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    // Written through secrets-groups-associations, as Nautobot's.
    secrets: ref.reverse("extras.SecretsGroupAssociation.group"),
  },
  nested: ["name", "slug"],
  naturalKey: "slug",
  filters: { q: ["name", "slug"], exclude: ["description"] },
});
