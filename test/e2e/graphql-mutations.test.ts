// GraphQL mutations at /api/graphql/ through the real server: create, update and delete of one
// object and of lists, written by the REST write pipeline (its validators and their wording,
// object permissions and their constraints, the change log), a document's mutations as one
// transaction, and the answer's selection read as a query's is.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { Contract } from "../support/contract.js";
import { call, del, get, patch, post, type Reply } from "../support/http.js";
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

  it("reads the answer of a whole document, whatever it selects, with one statement as a query's is", async () => {
    const { db } = await startTestServer();
    const tenant = (await post("/api/tenancy/tenants/", { name: `${tag}-st-tenant` })).body;
    const kept = (await post(SITES, { name: `${tag}-st-kept`, status: "active" })).body;
    const sql: string[] = [];
    const listen = (q: { sql: string }) => sql.push(q.sql);
    db.on("query", listen);
    let got: Reply;
    try {
      got = await gql(`mutation($input: [SiteInput!]!) {
        a: create_sites(input: $input) { name status { slug } tenant { name sites { name } } tags { slug } devices { id } }
        b: update_site(id: "${kept.id}", input: { tenant: "${tenant.id}" }) { name tenant { slug } }
      }`, { input: [{ name: `${tag}-st1`, status: "active", tenant: tenant.id, tags: [tagId] }, { name: `${tag}-st2`, status: "planned" }] });
    } finally {
      db.removeListener("query", listen);
    }
    expect(got.status, got.text).to.equal(200);
    expect(got.body.data.a.map((s: { name: string }) => s.name)).to.deep.equal([`${tag}-st1`, `${tag}-st2`]);
    expect(got.body.data.a[0].tenant.sites.map((s: { name: string }) => s.name).sort()).to.deep.equal([`${tag}-st-kept`, `${tag}-st1`]);
    expect(got.body.data.b).to.deep.equal({ name: `${tag}-st-kept`, tenant: { slug: tenant.slug } });
    // The query compiler runs each statement it makes under its own statement_timeout: one here, after the writes.
    const bounded = sql.flatMap((s, i) => (/^SET LOCAL statement_timeout/.test(s) ? [i] : []));
    expect(bounded, "the answer's statements").to.have.length(1);
    expect(sql[bounded[0] + 1]).to.include('"dcim_site"').and.include('"tenancy_tenant"').and.include('"extras_tag"');
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

  it("takes a related object by id or by attributes, as REST's nested writes do, and refuses one that names nothing as REST does", async () => {
    const tenant = (await post("/api/tenancy/tenants/", { name: `${tag}-tenant` })).body;
    const got = await gql(`mutation($a: SiteInput!, $b: SiteInput!, $c: SiteInput!) {
      a: create_site(input: $a) { tenant { id } } b: create_site(input: $b) { tenant { id } } c: create_site(input: $c) { tenant { id } }
    }`, {
      a: { name: `${tag}-lk1`, status: "active", tenant: tenant.id },
      b: { name: `${tag}-lk2`, status: "active", tenant: { slug: tenant.slug } },
      c: { name: `${tag}-lk3`, status: "active", tenant: { name: tenant.name, slug: tenant.slug } },
    });
    expect(got.status, got.text).to.equal(200);
    expect(got.body.data).to.deep.equal({ a: { tenant: { id: tenant.id } }, b: { tenant: { id: tenant.id } }, c: { tenant: { id: tenant.id } } });
    for (const wrong of [{ slug: `${tag}-nobody` }, "00000000-0000-4000-8000-000000000000", { name: "x", nonsense: 1 }]) {
      const body = { name: `${tag}-lk4`, status: "active", tenant: wrong };
      const rest = await post(SITES, body);
      expect(rest.status).to.equal(400);
      const refused = await gql(`mutation($input: SiteInput!) { create_site(input: $input) { id } }`, { input: body });
      expect([refused.status, refused.body.errors[0].extensions], JSON.stringify(wrong)).to.deep.equal([400, { code: "invalid", status: 400, errors: rest.body }]);
    }
    expect(await rows("dcim_site", { name: `${tag}-lk4` })).to.equal(0);
  });

  it("holds deletes and list writes to the constraints as REST's detail and bulk routes do", async () => {
    const inside = (await post(SITES, { name: `${tag}-c-in`, status: "active" })).body;
    const outside = (await post(SITES, { name: `${tag}-d-out`, status: "active" })).body;
    const key = await as([{ object_types: ["dcim.site"], actions: ["view", "change", "delete"], constraints: { name__startswith: `${tag}-c` } }]);
    const viewAll = await as([{ object_types: ["dcim.site"], actions: ["view"] }]);
    // Each refusal is the one REST gives the same requester for the same write.
    const cases: Array<[string, () => Promise<Reply>]> = [
      [`mutation { delete_site(id: "${outside.id}") }`, () => call("DELETE", `${SITES}${outside.id}/`, { token: key })],
      [`mutation { delete_sites(ids: ["${inside.id}", "${outside.id}"]) }`, () => call("DELETE", SITES, { token: key, body: [{ id: inside.id }, { id: outside.id }] })],
      [`mutation { update_sites(input: [{ id: "${inside.id}", description: "x" }, { id: "${outside.id}", description: "x" }]) { id } }`,
        () => call("PATCH", SITES, { token: key, body: [{ id: inside.id, description: "x" }, { id: outside.id, description: "x" }] })],
    ];
    for (const [query, rest] of cases) {
      const refused = await gql(query, undefined, key);
      const answer = await rest();
      expect(answer.status, query).to.be.within(400, 404);
      expect([refused.status, refused.body.data], query).to.deep.equal([answer.status, null]);
      const { extensions } = refused.body.errors[0];
      expect(extensions.status === 400 && extensions.errors ? extensions.errors : { detail: extensions.detail }, query).to.deep.equal(answer.body);
    }
    // A delete permission is needed for a delete, whatever else the requester may do.
    const noDelete = await gql(`mutation { delete_site(id: "${inside.id}") }`, undefined, viewAll);
    expect(noDelete.status).to.equal(403);
    for (const site of [inside, outside]) expect((await get(`${SITES}${site.id}/`)).body.description, site.name).to.equal("");
    const gone = await gql(`mutation { delete_sites(ids: ["${inside.id}"]) }`, undefined, key);
    expect([gone.status, gone.body.data]).to.deep.equal([200, { delete_sites: [inside.id] }]);
    expect(await rows("dcim_site", { id: inside.id })).to.equal(0);
    expect(await rows("dcim_site", { id: outside.id })).to.equal(1);
  });

  it("queues the job hooks a REST write would, and none for a document rolled back", async () => {
    const { db } = await startTestServer();
    const V13 = { headers: { Accept: "application/json; version=1.3" } };
    const job = (await get("/api/extras/jobs/?job_class_name=RecordChange", V13)).body.results[0];
    expect(job, "the test receiver job").to.not.equal(undefined);
    const enabled = job.enabled;
    if (!enabled) expect((await patch(`/api/extras/jobs/${job.id}/`, { enabled: true }, V13)).status).to.equal(200);
    const hook = await post("/api/extras/job-hooks/", { name: `${tag} job hook`, content_types: ["dcim.site"], job: job.id, type_create: true });
    expect(hook.status, hook.text).to.equal(201);
    const runsFor = async (name: string) => db("extras_jobresult as r").where("r.job_model_id", job.id)
      .whereRaw("(r.job_kwargs -> 'data' ->> 'object_change')::uuid IN (SELECT c.id FROM extras_objectchange c WHERE c.object_repr = ?)", [name]).select("r.id");
    const made: string[] = [];
    try {
      const got = await gql(`mutation { create_site(input: { name: "${tag}-jh", status: "active" }) { id } }`);
      expect(got.status, got.text).to.equal(200);
      const runs = await runsFor(`${tag}-jh`);
      made.push(...runs.map((r: { id: string }) => r.id));
      expect(runs).to.have.length(1);
      const refused = await gql(`mutation { a: create_site(input: { name: "${tag}-jh2", status: "active" }) { id } b: create_site(input: {}) { id } }`);
      expect(refused.status).to.equal(400);
      expect(await runsFor(`${tag}-jh2`)).to.have.length(0);
    } finally {
      // Not run here: the runs and their queued tasks go, so no later worker runs them.
      if (made.length) {
        await db("armature_tasks").whereRaw("payload::text LIKE ANY (?)", [made.map((id) => `%${id}%`)]).del();
        await db("extras_jobresult").whereIn("id", made).del();
      }
      expect((await del(`/api/extras/job-hooks/${hook.body.id}/`)).status).to.equal(204);
      if (!enabled) await patch(`/api/extras/jobs/${job.id}/`, { enabled: false }, V13);
    }
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
