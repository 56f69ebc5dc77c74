import { model, field } from "../../../generator/dsl/index.js";

/** The secrets providers this server has, as Nautobot's built-in ones. */
export const SECRETS_PROVIDERS = ["environment-variable", "text-file"];

export default model("Secret", {
  app: "extras",
  route: "secrets",
  description: "Access to a secret (a credential or token) kept outside the database: how a provider finds its value.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "extras/secret",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    provider: field.string({ required: true, maxLength: 100 }),
    parameters: field.json({ default: {}, schema: { type: "object" } }),
  },
  nested: ["name", "slug"],
  naturalKey: "slug",
  filters: { q: ["name", "slug"], exclude: ["description", "parameters"] },
  actions: {
    check: {
      description: "Whether the secret's value can be read now (its provider finds it), and why not",
      response: { type: "object", properties: { result: { type: "boolean" }, message: { type: "string" } }, required: ["result", "message"] },
    },
  },
});
