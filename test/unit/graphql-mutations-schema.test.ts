// The generated GraphQL mutations against the descriptors they come from: each model's REST
// write operations are its mutations, each `@write` names a model and an action the runtime
// finds, and an input type takes the fields a REST write takes in the latest version.
import { expect } from "chai";
import { GraphQLInputObjectType, GraphQLList, GraphQLNonNull, type GraphQLType } from "graphql";
import { apis } from "../../generated/server.js";
import { graphqlSdl } from "../../runtime/artifacts.js";
import { inVersion } from "../../runtime/descriptor.js";
import { buildGraphqlApi } from "../../runtime/graphql/schema.js";
import { ModelIndex } from "../../runtime/models.js";

const api = apis.find((a) => a.graphqlFile !== undefined)!;
const index = new ModelIndex(api);
const built = buildGraphqlApi(() => graphqlSdl(api)!, index);
const mutation = built.schema.getMutationType()!;
const named = (t: GraphQLType): string => (t instanceof GraphQLNonNull || t instanceof GraphQLList ? named(t.ofType) : (t as { name: string }).name);

describe("GraphQL mutations in the generated schema", () => {
  it("has a @write source for every mutation, naming a model whose REST routes allow the action", () => {
    const fields = Object.values(mutation.getFields());
    expect(fields.length).to.be.greaterThan(300);
    for (const f of fields) {
      const source = built.sources.get(`Mutation.${f.name}`);
      expect(source?.kind, f.name).to.equal("write");
      if (source?.kind !== "write") continue;
      expect(f.name.startsWith(`${source.action}_`), f.name).to.equal(true);
      expect(source.model.operations, f.name).to.include(source.action);
      // A create or update answers the model's own object type; a delete, the ids.
      if (source.action !== "delete") expect(built.models.get(named(f.type)), f.name).to.equal(source.model);
      else expect(named(f.type), f.name).to.equal("ID");
    }
  });

  it("gives each model of the queries with REST writes its one-object and list mutations", () => {
    const types = new Map([...built.models].map(([type, m]) => [m.key, type]));
    const queries = built.schema.getQueryType()!.getFields();
    for (const [key, type] of types) {
      const m = index.model(key);
      const list = Object.values(queries).find((q) => { const s = built.sources.get(`Query.${q.name}`); return s?.kind === "rows" && s.many && s.model === m; })!;
      for (const action of ["create", "update", "delete"] as const) {
        expect(!!mutation.getFields()[`${action}_${list.name}`], `${action}_${list.name} (${type})`).to.equal(m.operations.includes(action));
      }
    }
  });

  it("takes in an input type the fields a REST write takes, by REST's names", () => {
    const latest = api.versions.supported.at(-1)!;
    for (const [type, m] of built.models) {
      const input = built.schema.getType(type.replace(/Type$/, "Input"));
      if (!m.operations.includes("create") && !m.operations.includes("update")) continue;
      expect(input, type).to.be.instanceOf(GraphQLInputObjectType);
      const writable = m.fields.filter((f) => !f.readOnly && f.name !== "id" && f.kind !== "imageFile" && inVersion(f, latest, api.versions.supported)).map((f) => f.name);
      expect(Object.keys((input as GraphQLInputObjectType).getFields()).sort(), type).to.deep.equal(["id", ...writable].sort());
    }
    const site = built.schema.getType("SiteInput") as GraphQLInputObjectType;
    expect(Object.fromEntries(["name", "status", "tenant", "tags", "asn", "latitude", "custom_fields"].map((n) => [n, String(site.getFields()[n].type)])))
      .to.deep.equal({ name: "String", status: "String", tenant: "Lookup", tags: "[Lookup]", asn: "BigInteger", latitude: "Decimal", custom_fields: "GenericScalar" });
  });
});
