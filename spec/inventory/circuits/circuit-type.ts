import { model, field } from "../../../generator/dsl/index.js";

export default model("CircuitType", {
  app: "circuits",
  route: "circuit-types",
  description: "What a circuit is for (long haul, metro, out-of-band).",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    circuit_count: field.count({ of: "circuits.Circuit.type" }),
  },
  nested: ["name", "slug"],
  brief: ["name", "slug", "circuit_count"],
  filters: { q: ["name", "slug", "description"] },
});
