// The pieces of rate limits that need no server: the settings as read from RATE_LIMIT_*, what a
// request's demand costs, and the fields a GraphQL query selects and the writes a mutation makes.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { price, RATE_LIMIT_DEFAULTS } from "../../runtime/http/rate-limits.js";
import { graphqlDemand } from "../../runtime/graphql/cost.js";

const fieldsSelected = (query: string, operationName?: string) => graphqlDemand(query, operationName)?.fields ?? null;

describe("rate limits", () => {
  it("reads RATE_LIMIT_* settings, off unless enabled, and refuses a mistyped or empty budget", () => {
    expect(configFromEnv({}).rateLimits).to.deep.equal({ ...RATE_LIMIT_DEFAULTS, enabled: undefined });
    const env = { RATE_LIMIT_ENABLED: "1", RATE_LIMIT_BUDGET: "50", RATE_LIMIT_REFILL: "2", RATE_LIMIT_COST_READ: "2", RATE_LIMIT_COST_WRITE: "7", RATE_LIMIT_PAGE_ROWS: "25", RATE_LIMIT_COST_FIELD: "0" };
    expect(configFromEnv(env).rateLimits).to.deep.equal({ enabled: true, budget: 50, refill: 2, read: 2, write: 7, pageRows: 25, field: 0 });
    expect(configFromEnv({ RATE_LIMIT_ENABLED: "0" }).rateLimits.enabled).to.equal(false);
    expect(() => configFromEnv({ RATE_LIMIT_ENABLED: "yes" })).to.throw(/RATE_LIMIT_ENABLED/);
    expect(() => configFromEnv({ RATE_LIMIT_BUDGET: "1.5" })).to.throw(/RATE_LIMIT_BUDGET/);
    expect(() => configFromEnv({ RATE_LIMIT_BUDGET: "0" })).to.throw(/RATE_LIMIT_BUDGET/);
  });

  it("prices reads, writes, pages and fields, never above the budget", () => {
    const s = { ...RATE_LIMIT_DEFAULTS, budget: 100, read: 1, write: 10, pageRows: 10, field: 1 };
    expect(price(s, { writes: 0 })).to.equal(1);
    expect(price(s, { writes: 1 })).to.equal(10);
    expect(price(s, { writes: 3 })).to.equal(30);
    expect(price(s, { writes: 0, rows: 50 })).to.equal(6);
    expect(price(s, { writes: 0, rows: 51 })).to.equal(7);
    expect(price(s, { writes: 0, fields: 12 })).to.equal(13);
    expect(price(s, { writes: 0, rows: Infinity })).to.equal(100);
    expect(price(s, { writes: 50 })).to.equal(100);
    expect(price({ ...s, pageRows: 0 }, { writes: 0, rows: 1000 })).to.equal(1);
  });

  it("counts the fields a query selects, fragments each time they are spread", () => {
    expect(fieldsSelected("{ sites { id name } }")).to.equal(3);
    expect(fieldsSelected("{ a: sites { id } b: sites { id } }")).to.equal(4);
    expect(fieldsSelected("{ sites { ...F ...F } } fragment F on SiteType { id name }")).to.equal(5);
    expect(fieldsSelected("{ sites { ... on SiteType { id } } }")).to.equal(2);
    expect(fieldsSelected("query A { sites { id } } query B { devices { id name } }", "B")).to.equal(3);
    expect(fieldsSelected("{ sites { ...F } } fragment F on SiteType { ...F id }")).to.equal(2);
    expect(fieldsSelected("{ sites {")).to.equal(null);
    // A fragment bomb is counted only so far: far beyond what validation lets through.
    const bomb = `query { ...F0 } ${Array.from({ length: 40 }, (_, i) => `fragment F${i} on Query { sites { slug } ...F${i + 1} ...F${i + 1} }`).join(" ")} fragment F40 on Query { sites { slug } }`;
    expect(fieldsSelected(bomb)).to.be.above(10_000);
  });

  it("counts a mutation's writes: one a mutation field, a bulk one's elements, literal or from its variables", () => {
    expect(graphqlDemand("{ sites { id } }")).to.deep.equal({ fields: 2, writes: 0 });
    expect(graphqlDemand('mutation { create_tenant(input: { name: "a", slug: "a" }) { id } }')).to.deep.equal({ fields: 2, writes: 1 });
    expect(graphqlDemand('mutation { a: create_tenant(input: { name: "a" }) { id } b: delete_tenant(id: "x") }')).to.deep.equal({ fields: 3, writes: 2 });
    // A list inside the input object is a field's value, not more writes.
    expect(graphqlDemand('mutation { create_site(input: { name: "a", tags: [{ slug: "x" }, { slug: "y" }] }) { id } }')?.writes).to.equal(1);
    expect(graphqlDemand('mutation { create_tenants(input: [{ name: "a" }, { name: "b" }, { name: "c" }]) { id } }')?.writes).to.equal(3);
    const bulk = "mutation M($t: [TenantInput!]!, $ids: [ID!]!) { create_tenants(input: $t) { id } delete_tenants(ids: $ids) }";
    expect(graphqlDemand(bulk, "M", { t: [{}, {}], ids: ["1", "2", "3", "4"] })?.writes).to.equal(6);
    // Variables missing or not a list: the field's one write.
    expect(graphqlDemand(bulk, "M", { t: "nope" })?.writes).to.equal(2);
    expect(graphqlDemand("mutation { ...W } fragment W on Mutation { delete_tenant(id: \"x\") __typename }")).to.deep.equal({ fields: 2, writes: 1 });
    // The operation chosen by name: a query beside a mutation costs no write.
    expect(graphqlDemand('query Q { sites { id } } mutation W { delete_tenant(id: "x") }', "Q")?.writes).to.equal(0);
  });
});
