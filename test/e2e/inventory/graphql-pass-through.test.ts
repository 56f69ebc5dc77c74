// GraphQL answers written by PostgreSQL (runtime/graphql/compile.ts): where the statement's
// JSON text is the answer graphql-js would give, it is sent as it is, byte for byte what
// executing the document over the same rows writes; where it is not (computed fields, a
// requester whose view is narrowed, a refused filter), graphql-js executes as before.
import { expect } from "chai";
import { Engine } from "../../../runtime/engine.js";
import { graphqlService, type GraphqlAnswer, type Requester } from "../../../runtime/graphql/index.js";
import { JsonText } from "../../../runtime/query/json-text.js";
import { apis } from "../../../generated/server.js";
import { jsonCalls } from "../../support/json-calls.js";
import { maker, type Maker } from "../../support/made.js";
import { startTestServer, type TestServer } from "../../support/server.js";

const inventory = apis.find((a) => a.name === "inventory")!;

describe("GraphQL answers written by PostgreSQL", () => {
  let server: TestServer;
  let engine: Engine;
  const actor = { userId: null, username: "graphql-text", requestId: "graphql-text", context: "test", contextDetail: "" };
  const token = `gql-text-${Math.random().toString(36).slice(2, 10)}`;
  const suffix = Math.random().toString(36).slice(2, 8);
  let removeDefinitions: Maker["removeDefinitions"];
  const word = (errors: unknown) => JSON.stringify(errors);

  /** The answer to `query` as the service gives it with the text allowed, and as graphql-js executes it. */
  async function both(query: string, variables: Record<string, unknown> = {}): Promise<{ text: GraphqlAnswer; executed: GraphqlAnswer }> {
    const service = graphqlService(engine.index);
    const requester: Requester = { word, version: "1.3", apiUrl: `${server.url}/api` };
    const text = await service.run(await engine.operations.read(actor), { query, variables }, { ...requester, text: true });
    const executed = await service.run(await engine.operations.read(actor), { query, variables }, requester);
    return { text, executed };
  }

  before(async () => {
    server = await startTestServer();
    engine = new Engine(inventory, server.db);
    const made = maker(server);
    const { post } = made;
    removeDefinitions = made.removeDefinitions;
    // Custom fields of the kinds whose values graphql-js passes through as pg reads them.
    await post("extras/custom-fields/", { name: `t_${suffix}`, type: "text", content_types: ["dcim.site"] });
    await post("extras/custom-fields/", { name: `n_${suffix}`, type: "integer", content_types: ["dcim.site"] });
    await post("extras/custom-fields/", { name: `j_${suffix}`, type: "json", content_types: ["dcim.site"] });
    await post("extras/custom-fields/", { name: `b_${suffix}`, type: "boolean", content_types: ["dcim.site"] });
    await post("extras/computed-fields/", { content_type: "dcim.site", slug: `c_${suffix}`, label: `C ${suffix}`, template: "{{ obj.name | upper }}" });
    await post("dcim/sites/", {
      name: `${token} quote " backslash \\ tab \t é ☃ \u0001`, status: "active", latitude: "12.500000", asn: 4200000000, time_zone: "Europe/Paris",
      custom_fields: { [`t_${suffix}`]: "line\nbreak", [`n_${suffix}`]: -2147483648, [`j_${suffix}`]: { b: 1.5, a: [1e-7, 1e20, "10"], "2": 0.000001 }, [`b_${suffix}`]: false },
    });
    await post("dcim/sites/", { name: `${token} plain`, status: "planned" });
    await post("dcim/sites/", { name: `${token} wide`, status: "active", custom_fields: { [`n_${suffix}`]: 12345678901, [`t_${suffix}`]: "x" } });
  });

  after(() => removeDefinitions());

  const queries: Array<[string, string, Record<string, unknown>?]> = [
    ["scalars of every kind, custom fields, aliases and __typename", `query ($n: [String]) { sites(name: $n) {
      __typename id name slug status { name slug } latitude longitude asn time_zone facility created last_updated
      t: cf_t_${suffix} n: cf_n_${suffix} j: cf_j_${suffix} b: cf_b_${suffix} again: name tags { name } } }`],
    ["nested objects and lists, fragments and skipped fields", `fragment F on DeviceTypeType { model manufacturer { name slug } }
      query ($skip: Boolean!) { devices(limit: 30) { name position face serial @skip(if: $skip) device_type { ...F } device_role { name }
      site { name region { name } } interfaces { name type mtu enabled mac_address mode ip_addresses { address family status { slug } } tagged_vlans { vid } }
      primary_ip4 { address } tenant { name } } }`, { skip: true }],
    ["a root field by id, one empty list, and the same root twice under aliases", `{ first: prefixes(limit: 5) { prefix family is_pool vrf { name rd } }
      second: prefixes(limit: 3, offset: 2) { prefix } none: circuits(cid: "no such circuit") { cid } }`],
  ];

  for (const [what, query, variables] of queries) {
    it(`passes the text through, as graphql-js would write it: ${what}`, async () => {
      const { text, executed } = await both(query, { n: [`${token} quote " backslash \\ tab \t é ☃ \u0001`, `${token} plain`], ...variables });
      expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
      expect(text.body, "the statement's text is sent").to.be.instanceOf(JsonText);
      expect((text.body as JsonText).text).to.equal(JSON.stringify(executed.body));
    });
  }

  it("has graphql-js execute where a value is not what its type writes: an Int beyond 32 bits is its error", async () => {
    const { text, executed } = await both(`{ sites(name: "${token} wide") { name n: cf_n_${suffix} t: cf_t_${suffix} } }`);
    expect(text.body).not.to.be.instanceOf(JsonText);
    expect(text.body).to.deep.equal(executed.body);
    expect((text.body as { errors: Array<{ message: string }> }).errors[0].message).to.equal("Int cannot represent non 32-bit signed integer value: 12345678901");
  });

  it("has graphql-js execute where the text is not the answer: computed values, a refused filter", async () => {
    const computed = await both(`{ sites(name: "${token} plain") { name c: cpf_c_${suffix} } }`);
    expect(computed.text.body).not.to.be.instanceOf(JsonText);
    expect(computed.text.body).to.deep.equal({ data: { sites: [{ name: `${token} plain`, c: `${token} plain`.toUpperCase() }] } });
    const refused = await both(`{ sites(status: "no-such-status") { name } devices(limit: 1) { name } }`);
    expect(refused.text.body).not.to.be.instanceOf(JsonText);
    expect(refused.text.body).to.deep.equal(refused.executed.body);
    expect((refused.text.body as { errors?: unknown[] }).errors).to.have.length(1);
  });

  it("sends the text over HTTP without parsing or stringifying the answer", async () => {
    const request = JSON.stringify({ query: `{ sites(name__isw: "${token}") { name status { slug } } }` });
    const { result: res, seen } = await jsonCalls(() => fetch(`${server.url}/api/graphql/`, {
      method: "POST", headers: { Authorization: `Token ${server.token}`, "Content-Type": "application/json" }, body: request,
    }));
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    const body = await res.json() as { data: { sites: Array<{ name: string }> } };
    expect(body.data.sites.map((s) => s.name)).to.have.length(3);
    // The request's own text holds the token; the answer's names are what must not be seen.
    expect(seen.filter((s) => s.includes(`${token} plain`))).to.deep.equal([]);
  });
});
