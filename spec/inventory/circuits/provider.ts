import { model, field } from "../../../generator/dsl/index.js";

export default model("Provider", {
  app: "circuits",
  route: "providers",
  description: "A company circuits are bought from.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    asn: field.integer({ nullable: true, min: 1, max: 4294967295, label: "ASN", description: "32-bit autonomous system number" }),
    account: field.string({ maxLength: 100, label: "Account number" }),
    portal_url: field.string({ maxLength: 200, format: "url", label: "Portal URL" }),
    noc_contact: field.text({ label: "NOC contact" }),
    admin_contact: field.text({ label: "Admin contact" }),
    comments: field.text(),
    circuit_count: field.count({ of: "circuits.Circuit.provider" }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "slug"],
  brief: ["name", "slug", "circuit_count"],
  filters: { q: ["name", "account", "noc_contact", "admin_contact", "comments"] },
});
