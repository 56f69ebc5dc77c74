// The GraphQL schema kept in memory: fields taking the same arguments (a model's filters, on
// its query and on every reverse list reaching it) share one list of them, and a query through
// a shared list still takes every argument of it.
import { expect } from "chai";
import { graphql, GraphQLInterfaceType, GraphQLObjectType, type GraphQLField } from "graphql";
import { apis } from "../../generated/server.js";
import { graphqlSdl } from "../../runtime/artifacts.js";
import { buildGraphqlApi } from "../../runtime/graphql/schema.js";
import { ModelIndex } from "../../runtime/models.js";

const api = apis.find((a) => a.graphqlFile !== undefined)!;
const { schema } = buildGraphqlApi(() => graphqlSdl(api)!, new ModelIndex(api));

const fieldsWithArguments = () => Object.values(schema.getTypeMap())
  .filter((t): t is GraphQLObjectType | GraphQLInterfaceType => t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType)
  .flatMap((t) => (Object.values(t.getFields()) as Array<GraphQLField<unknown, unknown>>).filter((f) => f.args.length).map((f) => ({ type: t.name, f })));

describe("GraphQL schema: one list of arguments for the fields that take the same", () => {
  it("gives equal argument lists as one array, and keeps different ones apart", () => {
    const fields = fieldsWithArguments();
    const byContent = new Map<string, Set<unknown>>();
    for (const { f } of fields) {
      const key = JSON.stringify(f.args.map((a) => [a.name, String(a.type)]));
      const arrays = byContent.get(key) ?? new Set();
      arrays.add(f.args);
      byContent.set(key, arrays);
    }
    for (const [key, arrays] of byContent) expect(arrays.size, key.slice(0, 200)).to.equal(1);
    expect(byContent.size).to.be.lessThan(fields.length / 2);
    const interfaces = (type: string) => (schema.getType(type) as GraphQLObjectType).getFields().interfaces;
    expect(interfaces("DeviceType").args).to.equal((schema.getQueryType()!.getFields().interfaces).args);
    expect(interfaces("DeviceType").args.map((a) => a.name)).to.include.members(["name__ic", "mtu__gte", "q"]);
  });

  it("validates and introspects a reverse list's arguments from the shared list", async () => {
    const result = await graphql({
      schema,
      source: `{ __type(name: "DeviceType") { fields { name args { name } } } }`,
    });
    expect(result.errors).to.equal(undefined);
    const fields = (result.data as { __type: { fields: Array<{ name: string; args: Array<{ name: string }> }> } }).__type.fields;
    expect(fields.find((f) => f.name === "interfaces")!.args.map((a) => a.name)).to.include.members(["limit", "name__ic", "mtu__gte"]);
    const unknown = await graphql({ schema, source: `{ devices { interfaces(name__nonesuch: "x") { name } } }` });
    expect(unknown.errors?.[0].message).to.match(/^Unknown argument "name__nonesuch" on field "DeviceType.interfaces"\./);
  });
});
