// Long pages read as their rows arrive (runtime/store.ts RowsArriving) and sent as they come
// (runtime/http/json-text.ts sendArrivingJson): the same bytes as the same objects read a page
// of a hundred at a time, in chunks once the answer is long, whole with its length when short;
// a refusal the rows carry is still an error answer, and the browsable page still renders.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../../support/server.js";
import { jsonCalls } from "../../support/json-calls.js";
import { maker } from "../../support/made.js";

/** Prefixes made in the VRF of this file's own: some 2 KB of answer each. */
const MANY = 400;

describe("Long pages sent as their rows arrive", function () {
  let server: TestServer;
  let vrf = "";
  let fewVrf = "";
  let headers: Record<string, string>;
  const list = (query: string, extra: Record<string, string> = {}) => fetch(`${server.url}/api/ipam/prefixes/?${query}`, { headers: { ...headers, ...extra } });

  before(async () => {
    server = await startTestServer();
    headers = { Authorization: `Token ${server.token}`, Accept: "application/json" };
    const { post } = maker(server);
    const suffix = Math.random().toString(36).slice(2, 8);
    vrf = (await post("ipam/vrfs/", { name: `arriving ${suffix}` })).id;
    fewVrf = (await post("ipam/vrfs/", { name: `arriving few ${suffix}` })).id;
    const bodies = Array.from({ length: MANY }, (_, n) => ({ vrf, prefix: `10.${200 + (n >> 8)}.${n & 255}.0/24`, status: "active", description: `arriving ${n}` }));
    const res = await fetch(`${server.url}/api/ipam/prefixes/`, {
      method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(bodies),
    });
    expect(res.status, await res.clone().text()).to.equal(201);
    for (const prefix of ["10.250.0.0/24", "10.250.1.0/24"]) await post("ipam/prefixes/", { vrf: fewVrf, prefix, status: "active" });
  });

  it("sends a long page in chunks, byte for byte the pages of a hundred run together", async () => {
    const { result: res, seen } = await jsonCalls(() => list(`vrf_id=${vrf}&limit=1000`));
    const body = await res.text();
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(body.length, "longer than what is held before chunks").to.be.greaterThan(262144);
    expect(res.headers.get("transfer-encoding")).to.equal("chunked");
    expect(res.headers.get("content-length")).to.equal(null);
    expect(seen.filter((s) => s.includes("arriving 1"))).to.deep.equal([]);
    const results: string[] = [];
    for (let offset = 0; offset < MANY; offset += 100) {
      const page = await list(`vrf_id=${vrf}&limit=100&offset=${offset}`);
      expect(page.headers.get("content-length")).to.not.equal(null);
      const text = await page.text();
      results.push(text.slice(text.indexOf(`"results":[`) + `"results":[`.length, -2));
    }
    expect(body).to.equal(`{"count":${MANY},"next":null,"previous":null,"results":[${results.join(",")}]}`);
    expect(JSON.parse(body).results.map((p: { description: string }) => p.description)).to.include.members(["arriving 0", `arriving ${MANY - 1}`]);
  });

  it("sends a short page whole, with its length, and links its next page", async () => {
    const res = await list(`vrf_id=${fewVrf}&limit=1000`);
    const body = await res.text();
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-length")).to.equal(String(Buffer.byteLength(body)));
    expect(JSON.parse(body).count).to.equal(2);
    const cut = await list(`vrf_id=${vrf}&limit=150&offset=0`);
    const page = await cut.json() as { count: number; next: string; results: unknown[] };
    expect([page.count, page.results.length]).to.deep.equal([MANY, 150]);
    expect(page.next).to.equal(`${server.url}/api/ipam/prefixes/?limit=150&offset=150&vrf_id=${vrf}`);
  });

  it("answers a refusal the rows carry with the filter's error, and an empty page", async () => {
    const bad = await list(`vrf_id=${vrf}&limit=1000&status=nonesuch`);
    expect(bad.status).to.equal(400);
    expect(await bad.json()).to.deep.equal({ status: ["Select a valid choice. nonesuch is not one of the available choices."] });
    const none = await list(`vrf_id=${vrf}&limit=1000&prefix=192.0.2.0/24`);
    expect(await none.json()).to.deep.equal({ count: 0, next: null, previous: null, results: [] });
  });

  it("renders the browsable page of a long list from the whole text", async () => {
    const res = await list(`vrf_id=${vrf}&limit=1000`, { Accept: "text/html" });
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/html/);
    expect(await res.text()).to.include("arriving 399");
  });
});
