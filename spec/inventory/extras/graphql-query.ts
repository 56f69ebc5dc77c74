import { model, field } from "../../../generator/dsl/index.js";

export default model("GraphQLQuery", {
  app: "extras",
  route: "graphql-queries",
  verboseName: "GraphQL Query",
  description: "A saved GraphQL query, run with its variables through the `run` action.",
  display: "{name}",
  ordering: ["slug"],
  features: ["changeLogged", "notes"],
  hooks: "extras/graphql-query",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: ["name"] }),
    query: field.text({ required: true }),
    // Nautobot's save() replaces whatever is written with the query's own variables (their
    // defaults, or ""), so a written value is never kept: read only here.
    variables: field.json({ readOnly: true, default: {}, schema: { type: "object" } }),
  },
  actions: {
    run: {
      description: "Runs the saved query as the requester, with the body's variables; answers as /api/graphql/ does",
      method: "POST",
      request: { type: "object", properties: { variables: { type: "object", additionalProperties: {} } } },
      response: { type: "object", properties: { data: { type: "object", additionalProperties: {} }, errors: { type: "array", items: { type: "object", additionalProperties: {} } } } },
    },
  },
  nested: ["name"],
  filters: {
    q: ["name", "slug", "query"],
    // GraphQLQueryFilterSet's Meta fields are the name and slug.
    exclude: ["query", "variables", "created", "last_updated"],
  },
});
