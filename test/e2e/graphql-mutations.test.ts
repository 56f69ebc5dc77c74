// GraphQL mutations at /api/graphql/ through the real server: create, update and delete of one
// object and of lists, written by the REST write pipeline (its validators and their wording,
// object permissions and their constraints, the change log), a document's mutations as one
// transaction, and the answer's selection read as a query's is.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { Contract } from "../support/contract.js";
import { call, del, get, post, type Reply } from "../support/http.js";
import { startTestServer, type Grant } from "../support/server.js";
import { rows, uniq } from "./inventory/support.js";

const GQL = "/api/graphql/";
const SITES = "/api/dcim/sites/";

const inventory = apis.find((a) => a.profile === "drf")!;
const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, unknown>, "graphql-mutations.json");

/** A GraphQL request's reply, checked against what the served document says of the endpoint. */
async function gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<Reply> {
  const reply = await post(GQL, { query, ...(variables ? { variables } : {}) }, token === undefined ? {} : { token });
  contract.check("post", GQL, reply);
  return reply;
}

describe("inventory e2e: GraphQL mutations", () => {
  const tag = uniq("gqlm").toLowerCase();
  let tagId = "";

  before(async () => {
    const t = await post("/api/extras/tags/", { name: tag, slug: tag, color: "00ff00", content_types: ["dcim.site"] });
    expect(t.status, t.text).to.equal(201);
    tagId = t.body.id;
  });

  // The worker's server is shared: a custom field left defined would show in every later site.
  let madeField: string | undefined;
  after(async () => {
    if (madeField) expect((await del(`/api/extras/custom-fields/${madeField}/`)).status).to.equal(204);
  });

  const as = async (grants: Grant[]) => (await (await startTestServer()).user(uniq(`${tag}-u`), { grants })).key;

  it("creates one object from its input type, answers the selection as a query would, and records the change as the requester's", async () => {
    const name = `${tag}-one`;
    const cf = `gqlm_cf_${process.pid}`;
    const field = await post("/api/extras/custom-fields/", { name: cf, type: "integer", content_types: ["dcim.site"] });
    expect(field.status).to.equal(201);
    madeField = field.body.id;
    const got = await gql(`mutation($input: SiteInput!) { made: create_site(input: $input) { id name status { slug } tags { name } cf_${cf} } }`,
      { input: { name, slug: name, status: "active", tags: [{ slug: tag }], description: "by graphql", custom_fields: { [cf]: 7 } } });
    expect(got.status, got.text).to.equal(200);
    expect(got.body.errors).to.equal(undefined);
    const made = got.body.data.made;
    expect(made).to.include({ name });
    expect(made.status).to.deep.equal({ slug: "active" });
    expect(made.tags).to.deep.equal([{ name: tag }]);
    expect(made[`cf_${cf}`]).to.equal(7);
    const rest = await get(`${SITES}${made.id}/`);
    expect(rest.status).to.equal(200);
    expect(rest.body).to.deep.include({ name, slug: name, description: "by graphql" });
    expect(rest.body.custom_fields[cf]).to.equal(7);
    expect(rest.body.tags.map((t: { id: string }) => t.id)).to.deep.equal([tagId]);
    const changes = await get(`/api/extras/object-changes/?changed_object_id=${made.id}`);
    expect(changes.status, changes.text).to.equal(200);
    expect(changes.body.results.map((c: Record<string, any>) => [c.action.value, c.user_name, c.request_id]))
      .to.deep.equal([["create", "admin", got.headers.get("x-request-id")]]);
    expect(changes.body.results[0].object_data).to.include({ name, description: "by graphql" });
    const { db } = await startTestServer();
    const stored = await db("extras_objectchange").where("changed_object_id", made.id).select("change_context", "change_context_detail");
    expect(stored).to.deep.equal([{ change_context: "api", change_context_detail: "graphql" }]);
  });

  it("updates and deletes one object, and lists of them, in the order given", async () => {
    const names = ["l1", "l2", "l3"].map((n) => `${tag}-${n}`);
    const made = await gql(`mutation($input: [SiteInput!]!) { create_sites(input: $input) { id name } }`,
      { input: names.map((name) => ({ name, slug: name, status: "planned" })) });
    expect(made.status, made.text).to.equal(200);
    const ids: string[] = made.body.data.create_sites.map((s: { id: string; name: string }, i: number) => {
      expect(s.name).to.equal(names[i]);
      return s.id;
    });
    // Lookups written inline as object literals, a fragment on the mutation type, __typename at the root.
    const one = await gql(`mutation { __typename ...F } fragment F on Mutation {
      update_site(id: "${ids[0]}", input: { description: "one", status: "active", tags: [{ slug: "${tag}" }] }) { name description status { slug } tags { slug } }
    }`);
    expect(one.status, one.text).to.equal(200);
    expect(one.body.data).to.deep.equal({ __typename: "Mutation", update_site: { name: names[0], description: "one", status: { slug: "active" }, tags: [{ slug: tag }] } });
    const many = await gql(`mutation($input: [SiteInput!]!) { update_sites(input: $input) { id description } }`,
      { input: [{ id: ids[2], description: "three" }, { id: ids[1], description: "two" }] });
    expect(many.status, many.text).to.equal(200);
    expect(many.body.data.update_sites).to.deep.equal([{ id: ids[2], description: "three" }, { id: ids[1], description: "two" }]);
    expect((await get(`${SITES}${ids[0]}/`)).body.description).to.equal("one");
    const gone = await gql(`mutation { delete_site(id: "${ids[0]}") delete_sites(ids: ["${ids[1]}", "${ids[2]}"]) }`);
    expect(gone.status, gone.text).to.equal(200);
    expect(gone.body.data).to.deep.equal({ delete_site: ids[0], delete_sites: [ids[1], ids[2]] });
    for (const id of ids) expect((await get(`${SITES}${id}/`)).status).to.equal(404);
  });

  it("refuses bad input with REST's own field messages in the error's extensions, writing nothing", async () => {
    const body = { slug: `${tag}-bad`, status: "nonsense", tenant: { slug: `${tag}-nowhere` } };
    const rest = await post(SITES, body);
    expect(rest.status).to.equal(400);
    const got = await gql(`mutation($input: SiteInput!) { create_site(input: $input) { id } }`, { input: body });
    expect(got.status, got.text).to.equal(400);
    expect(got.body.data).to.equal(null);
    expect(got.body.errors).to.have.length(1);
    expect(got.body.errors[0].path).to.deep.equal(["create_site"]);
    expect(got.body.errors[0].extensions).to.deep.equal({ code: "invalid", status: 400, errors: rest.body });
    expect(got.body.errors[0].extensions.errors).to.have.keys("name", "status", "tenant");
    expect(await rows("dcim_site", { slug: `${tag}-bad` })).to.equal(0);
    // A bulk's errors are REST's: one entry per element, `{}` for the good ones.
    const bulk = await gql(`mutation($input: [SiteInput!]!) { create_sites(input: $input) { id } }`,
      { input: [{ name: `${tag}-ok`, status: "active" }, { name: `${tag}-ok2` }] });
    expect(bulk.status, bulk.text).to.equal(400);
    expect(bulk.body.errors[0].extensions.errors).to.deep.equal([{}, { status: ["This field is required."] }]);
    expect(await rows("dcim_site", { name: `${tag}-ok` })).to.equal(0);
    // A NUL character, which PostgreSQL cannot store, is REST's 400 too.
    const nul = await gql(`mutation($input: SiteInput!) { create_site(input: $input) { id } }`, { input: { name: `${tag}-nul\u0000`, status: "active" } });
    expect(nul.status, nul.text).to.equal(400);
    expect(JSON.stringify(nul.body.errors[0].extensions)).to.match(/Null characters are not allowed/);
    expect((await get(`${SITES}?name__isw=${tag}-nul`)).body.count).to.equal(0);
    // An id that names nothing is REST's 404.
    const missing = await gql(`mutation { update_site(id: "00000000-0000-4000-8000-000000000000", input: { description: "x" }) { id } }`);
    expect([missing.status, missing.body.errors[0].extensions]).to.deep.equal([404, { code: "not_found", status: 404, detail: "Not found." }]);
  });

  it("runs a document's mutations as one transaction: one refused, none written", async () => {
    const first = `${tag}-first`;
    const kept = (await post(SITES, { name: `${tag}-kept`, status: "active" })).body;
    const got = await gql(`mutation {
      a: create_site(input: { name: "${first}", status: "active" }) { id }
      b: update_site(id: "${kept.id}", input: { description: "changed" }) { id }
      c: create_site(input: { name: "${tag}-second", status: "nonsense" }) { id }
    }`);
    expect(got.status, got.text).to.equal(400);
    expect(got.body.errors[0].path).to.deep.equal(["c"]);
    expect(got.body.errors[0].extensions.errors).to.have.keys("status");
    expect(await rows("dcim_site", { name: first })).to.equal(0);
    expect((await get(`${SITES}${kept.id}/`)).body.description).to.equal("");
    // An answer that cannot be read (a bad filter below the object written) fails the document too.
    const unread = await gql(`mutation { create_site(input: { name: "${first}", status: "active" }) { devices(id: ["not-a-uuid"]) { id } } }`);
    expect(unread.status, unread.text).to.equal(400);
    expect(unread.body.data).to.equal(null);
    expect(await rows("dcim_site", { name: first })).to.equal(0);
    const changes = await get(`/api/extras/object-changes/?changed_object_id=${kept.id}`);
    expect(changes.body.results.map((c: { action: { value: string } }) => c.action.value)).to.deep.equal(["create"]);
  });

  it("holds the requester to REST's permissions: the action on the model, its constraints, a token that may write", async () => {
    const none = await as([{ object_types: ["dcim.site"], actions: ["view"] }]);
    const refused = await gql(`mutation { create_site(input: { name: "${tag}-p0", status: "active" }) { id } }`, undefined, none);
    expect([refused.status, refused.body.errors[0].message]).to.deep.equal([403, "You do not have permission to perform this action."]);
    const constrained = await as([{ object_types: ["dcim.site"], actions: ["view", "add", "change"], constraints: { name__startswith: `${tag}-ok` } }]);
    const outside = await gql(`mutation { a: create_site(input: { name: "${tag}-ok1", status: "active" }) { id } b: create_site(input: { name: "${tag}-no", status: "active" }) { id } }`, undefined, constrained);
    expect(outside.status, outside.text).to.equal(403);
    expect(outside.body.errors[0].path).to.deep.equal(["b"]);
    expect(await rows("dcim_site", { name: `${tag}-ok1` })).to.equal(0);
    const inside = await gql(`mutation { create_site(input: { name: "${tag}-ok2", status: "active" }) { name } }`, undefined, constrained);
    expect([inside.status, inside.body.data]).to.deep.equal([200, { create_site: { name: `${tag}-ok2` } }]);
    // A change that would take the object outside the constraints is refused too.
    const id = (await get(`${SITES}?name=${tag}-ok2`)).body.results[0].id;
    const moved = await gql(`mutation { update_site(id: "${id}", input: { name: "${tag}-moved" }) { name } }`, undefined, constrained);
    expect(moved.status, moved.text).to.equal(403);
    expect((await get(`${SITES}${id}/`)).body.name).to.equal(`${tag}-ok2`);
    const anonymous = await gql(`mutation { create_site(input: { name: "${tag}-anon", status: "active" }) { id } }`, undefined, null as unknown as string);
    expect(anonymous.status, anonymous.text).to.equal(403);
    expect(await rows("dcim_site", { name: `${tag}-anon` })).to.equal(0);
  });

  it("queues the webhooks a REST write would, and none for a document rolled back", async () => {
    const { db } = await startTestServer();
    // Nothing listens there: the deliveries are only looked at on the queue.
    const hook = await post("/api/extras/webhooks/", { name: `${tag} hook`, content_types: ["dcim.site"], type_create: true, payload_url: "http://127.0.0.1:9/gqlm" });
    expect(hook.status, hook.text).to.equal(201);
    // This hook's: other files' webhooks on the worker's shared server may call for sites too.
    const deliveries = async (name: string) => Number((await db("armature_tasks").where("kind", "webhook")
      .whereRaw("payload::text LIKE ? AND payload::text LIKE ?", [`%${name}%`, "%127.0.0.1:9/gqlm%"]).count({ n: "*" }).first() as { n: string }).n);
    try {
      const made = await gql(`mutation { create_site(input: { name: "${tag}-hooked", status: "active" }) { id } }`);
      expect(made.status, made.text).to.equal(200);
      expect(await deliveries(`${tag}-hooked`)).to.equal(1);
      const refused = await gql(`mutation { a: create_site(input: { name: "${tag}-unhooked", status: "active" }) { id } b: create_site(input: {}) { id } }`);
      expect(refused.status).to.equal(400);
      expect(await deliveries(`${tag}-unhooked`)).to.equal(0);
    } finally {
      await call("DELETE", `/api/extras/webhooks/${hook.body.id}/`);
    }
  });

  it("refuses subscriptions and documents that do not match the schema before writing anything", async () => {
    const wrong = await gql(`mutation { create_site(input: { name: 5, nonsense: 1 }) { id } }`);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.errors.length).to.be.greaterThan(0);
    const sub = await gql(`subscription { sites { id } }`);
    expect(sub.status).to.equal(400);
  });
});
