import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Aggregate", {
  app: "ipam",
  route: "aggregates",
  description: "A top-level block of address space, allocated by a RIR; aggregates never overlap.",
  display: "{prefix}",
  ordering: ["prefix"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/aggregate",
  // Nautobot keeps these as model fields, which its GraphQL type shows and its REST serializer does not.
  graphqlFields: {
    network: { type: "String", sql: "host(network({prefix}))" },
    broadcast: { type: "String", sql: "host(broadcast({prefix}))" },
    prefix_length: { type: "Int", sql: "masklen({prefix})" },
  },
  fields: {
    family: field.ipFamily({ from: "prefix" }),
    prefix: field.cidr({ required: true }),
    rir: ref.fk("ipam.RIR", { required: true, label: "RIR" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true }),
    date_added: field.date({ nullable: true }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["family", "prefix"],
  // Nautobot's AggregateFilterSet: `prefix` (exact), `family`, `q`, rir and tenancy; no within/contains.
  filters: {
    via: { tenant_group: "tenant.group" },
    q: ["description"],
    qAddress: "prefix",
  },
});
