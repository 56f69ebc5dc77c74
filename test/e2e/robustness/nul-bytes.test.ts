// Text PostgreSQL cannot store (a NUL byte) reaching the database, through any query parameter,
// path segment, header or body field of either API, is the API's own 400 and changes nothing:
// a sweep over every route of both route tables, every parameter the profiles read themselves
// (not filters: those refuse NUL by name already), every placeholder, and the bodies read
// outside the store's field checks.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import type { DrfRoute } from "../../../runtime/descriptor.js";
import { startTestServer } from "../../support/server.js";
import { call, type Reply } from "../../support/http.js";
import { NS } from "../calendar/support.js";
import { rows } from "../inventory/support.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const calendar = apis.find((a) => a.profile === "wordpress")!;
const NUL = "a%00b";
/** The query parameters the DRF profile reads itself, and one that is no filter at all. */
const RESERVED = ["export", "cursor", "format", "include", "exclude", "limit", "offset", "api_version", "brief", "depth", `x${NUL}`];

/** A route's path with every placeholder a NUL-carrying value. */
const poisoned = (r: DrfRoute) => r.path.replace(/\{[^}]+\}/g, NUL);

/** Replies, a few requests at a time. */
async function sendAll(requests: Array<() => Promise<Reply>>): Promise<Reply[]> {
  const out: Reply[] = [];
  for (let i = 0; i < requests.length; i += 8) out.push(...await Promise.all(requests.slice(i, i + 8).map((r) => r())));
  return out;
}

/**
 * Every reply a refusal in the API's shape (a 4xx), or, where the value never reaches the
 * database (a parameter the API ignores, a `brief` that is only present), its plain answer:
 * never a 5xx.
 */
function expectNoFailures(what: string[], replies: Reply[], shape: (body: any) => boolean): void {
  const bad = replies.map((r, i) => ({ what: what[i], status: r.status, body: r.text.slice(0, 160) }))
    .filter((r, i) => r.status >= 500 || (r.status >= 400 && !shape(replies[i].body)));
  expect(bad.map((b) => `${b.status} ${b.what}: ${b.body}`), "requests failed, or refused outside the API's shape").to.deep.equal([]);
}

/** Every reply a 4xx in the API's shape. */
function expectRefusals(what: string[], replies: Reply[], shape: (body: any) => boolean): void {
  const bad = replies.map((r, i) => ({ what: what[i], status: r.status, body: r.text.slice(0, 160) }))
    .filter((r, i) => r.status < 400 || r.status >= 500 || !shape(replies[i].body));
  expect(bad.map((b) => `${b.status} ${b.what}: ${b.body}`), "requests not refused with a 4xx in the API's shape").to.deep.equal([]);
}

const drfShape = (body: any) => body !== null && typeof body === "object";
/** GraphQL's refusal of a root field: its errors beside the data, as for any bad filter value. */
const graphqlShape = (body: any) => Array.isArray(body?.errors) && body.errors.every((e: any) => /Null characters are not allowed/.test(e.message));
const wpShape = (body: any) => typeof body?.code === "string" && typeof body?.message === "string";

describe("robustness: a NUL byte anywhere is the API's 400, never a 5xx", function () {
  this.timeout(300_000);
  let changesBefore: number;
  before(async () => {
    const { db } = await startTestServer();
    changesBefore = Number((await db("extras_objectchange").count({ n: "*" }).first())!.n);
  });

  it("inventory: in every parameter the profile reads itself, on every list", async () => {
    // An app's lists are served only while it is enabled, which the shared server's are not.
    const apps = (inventory.plugins ?? []).map((p) => `${p.base}/`);
    const lists = inventory.drfRoutes!.filter((r) => (r.view === "list" || r.view === "listing") && !apps.some((base) => r.path.startsWith(base)));
    const what = lists.flatMap((r) => RESERVED.map((p) => `GET ${r.path}?${p}`));
    const replies = await sendAll(lists.flatMap((r) => RESERVED.map((p) => () => call("GET", `${inventory.basePath}${r.path}?${p.includes("%00") ? `${p}=1` : `${p}=${NUL}`}`))));
    expectNoFailures(what, replies, drfShape);
    // Those that reach the database: an export template's name (the case the hostile sweep
    // found), and every list's filters, which refuse it by name.
    const exports = replies.filter((_r, i) => what[i].endsWith("?export") && lists[Math.floor(i / RESERVED.length)].view === "list"
      && !lists[Math.floor(i / RESERVED.length)].listedBy);
    expect(exports.length).to.be.greaterThan(50);
    for (const r of exports) expect(r.body, r.text).to.deep.equal({ detail: "Null characters are not allowed." });
    const found = await call("GET", `${inventory.basePath}extras/secrets-groups-associations/?export=${NUL}`);
    expect(found.status, found.text).to.equal(400);
    const filtered = await call("GET", `${inventory.basePath}dcim/sites/?name=${NUL}`);
    expect([filtered.status, filtered.body]).to.deep.equal([400, { name: ["Null characters are not allowed."] }]);
  });

  it("inventory: in every path placeholder, every method a route takes", async () => {
    const placed = inventory.drfRoutes!.filter((r) => r.params.length);
    const requests = placed.flatMap((r) => (r.methods.includes("*") ? ["GET"] : r.methods).map((m) => ({ m, r })));
    const replies = await sendAll(requests.map(({ m, r }) => () => call(m, `${inventory.basePath}${poisoned(r)}`, m === "GET" || m === "DELETE" ? {} : { body: {} })));
    expectNoFailures(requests.map(({ m, r }) => `${m} ${r.path}`), replies, drfShape);
    // A placeholder no route takes as an id reaches the database: a job's class path.
    const run = await call("POST", `${inventory.basePath}extras/jobs/local/${NUL}/Job/run/`, { body: {} });
    expect([run.status, run.body]).to.deep.equal([400, { detail: "Null characters are not allowed." }]);
  });

  it("inventory: in bodies read outside the store's field checks", async () => {
    const nul = "a\u0000b";
    const replies = [
      await call("PATCH", `${inventory.basePath}users/config/`, { body: { [nul]: 1, x: { y: nul } } }),
      await call("POST", `${inventory.basePath}extras/jobs/local/${NUL}/Job/run/`, { body: { data: { x: nul } } }),
      await call("POST", `${inventory.basePath}users/tokens/provision/`, { token: null, body: { username: nul, password: nul } }),
      await call("POST", `${inventory.basePath}dcim/sites/`, { body: [{ name: nul, slug: "x", status: "active" }] }),
    ];
    expectRefusals(["users/config", "job run", "token provisioning", "bulk create"], replies, drfShape);
    expect(replies[0].body).to.deep.equal({ detail: "Null characters are not allowed." });
    // GraphQL refuses the field whose filter value holds one, as any bad filter value.
    const graphql = [
      await call("POST", `${inventory.basePath}graphql/`, { body: { query: `{ sites(name: "${nul}") { id } }` } }),
      await call("POST", `${inventory.basePath}graphql/`, { body: { query: "query ($n: [String]) { sites(name: $n) { id } }", variables: { n: [nul] } } }),
    ];
    for (const g of graphql) expect(graphqlShape(g.body), g.text).to.equal(true);
  });

  it("both APIs: in the headers whose values reach the database", async () => {
    // A header cannot carry a raw NUL (Node's parser refuses it before any route), but Basic
    // credentials are base64 and a cookie is percent-decoded: both reach the user look-ups.
    const basic = { Authorization: `Basic ${Buffer.from("a\u0000b:pass\u0000word").toString("base64")}` };
    const cookie = { Cookie: "sessionid=a%00b; csrftoken=a%00b" };
    const drf = [
      await call("GET", `${inventory.basePath}dcim/sites/`, { token: null, headers: basic }),
      await call("POST", `${inventory.basePath}users/tokens/provision/`, { token: null, headers: basic, body: {} }),
      await call("GET", `${inventory.basePath}dcim/sites/`, { token: null, headers: cookie }),
      await call("POST", `${inventory.basePath}dcim/sites/`, { token: null, headers: cookie, body: { name: "x", slug: "x", status: "active" } }),
    ];
    expectRefusals(["Basic on a list", "Basic on token provisioning", "session cookie on a list", "session cookie on a write"], drf, drfShape);
    const wp = [
      await call("GET", `${NS}/events`, { token: null, headers: basic }),
      await call("POST", `${NS}/events`, { token: null, headers: basic, body: { title: "x" } }),
    ];
    expectRefusals(["Basic on a read", "Basic on a write"], wp, wpShape);
  });

  it("calendar: in every route's path and its search and slug parameters", async () => {
    const paths = ["/events", "/venues", "/organizers", "/categories", "/tags"];
    const what: string[] = [];
    const requests: Array<() => Promise<Reply>> = [];
    for (const p of paths) {
      // A parameter WordPress does not know is ignored, as it ignores any: only known ones reach the database.
      for (const q of [`search=${NUL}`, `slug=${NUL}`, `page=${NUL}`, `per_page=${NUL}`, `start_date=${NUL}`]) {
        what.push(`GET ${p}?${q}`);
        requests.push(() => call("GET", `${NS}${p}?${q}`, { token: null }));
      }
      what.push(`GET ${p}/by-slug/${NUL}`);
      requests.push(() => call("GET", `${NS}${p}/by-slug/${NUL}`, { token: null }));
    }
    const replies = await sendAll(requests);
    expectRefusals(what, replies, wpShape);
    expect(calendar.routes!.length).to.be.greaterThan(0);
  });

  it("changed nothing", async () => {
    const { db } = await startTestServer();
    expect(Number((await db("extras_objectchange").count({ n: "*" }).first())!.n)).to.equal(changesBefore);
    expect(await rows("dcim_site", { slug: "x" })).to.equal(0);
  });
});
