import { model, field } from "../../../generator/dsl/index.js";

export default model("RIR", {
  app: "ipam",
  route: "rirs",
  verboseName: "RIR",
  description: "A regional Internet registry (ARIN, RIPE) or a standard (RFC 1918) that allocates address space.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    is_private: field.boolean({ default: false, label: "Private", description: "IP space managed by this RIR is considered private" }),
    description: field.string({ maxLength: 200 }),
    aggregate_count: field.count({ of: "ipam.Aggregate.rir" }),
  },
  // Embedded in another object the count is absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps it.
  nested: ["name", "slug"],
  brief: ["name", "slug", "aggregate_count"],
  filters: { q: ["name", "slug"] },
});
