// Version negotiation and response headers: the API-Version header on every successful
// response, Allow and Vary, selecting 1.2/1.3 by Accept parameter or query, and the
// 406/404/400 errors for bad header, bad query and a mismatch; unsatisfiable Accept → 406.
import { expect } from "chai";
import { call, get, post } from "../../support/http.js";
import { uniq } from "./support.js";

const LIST_ALLOW = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS";
const DETAIL_ALLOW = "GET, PUT, PATCH, DELETE, HEAD, OPTIONS";

describe("inventory e2e: versioning and headers", () => {
  it("API-Version defaults to 1.2 on every kind of successful response", async () => {
    const created = await post("/api/extras/tags/", { name: uniq("Tag") });
    const replies = [
      created,
      await get("/api/"),
      await get("/api/dcim/"),
      await get("/api/status/"),
      await get("/api/extras/tags/"),
      await get(`/api/extras/tags/${created.body.id}/`),
      await call("PATCH", `/api/extras/tags/${created.body.id}/`, { body: { description: "d" } }),
      await call("OPTIONS", "/api/extras/tags/"),
      await call("DELETE", `/api/extras/tags/${created.body.id}/`),
    ];
    for (const r of replies) {
      expect(r.status).to.be.within(200, 204);
      expect(r.headers.get("api-version")).to.equal("1.2");
    }
  });

  it("list and detail carry Allow, Vary and a JSON Content-Type", async () => {
    const list = await get("/api/dcim/sites/");
    expect(list.headers.get("allow")).to.equal(LIST_ALLOW);
    expect(list.headers.get("vary")).to.match(/Accept/);
    expect(list.headers.get("content-type")).to.match(/^application\/json/);
    const site = list.body.results[0];
    const detail = await get(`/api/dcim/sites/${site.id}/`);
    expect(detail.headers.get("allow")).to.equal(DETAIL_ALLOW);
    expect(detail.headers.get("vary")).to.match(/Accept/);
  });

  it("Accept: application/json; version=1.3 selects 1.3", async () => {
    const res = await get("/api/dcim/sites/", { headers: { Accept: "application/json; version=1.3" } });
    expect(res.status).to.equal(200);
    expect(res.headers.get("api-version")).to.equal("1.3");
    const plain = await get("/api/dcim/sites/", { headers: { Accept: "application/json; version=1.2" } });
    expect(plain.headers.get("api-version")).to.equal("1.2");
  });

  it("?api_version=1.3 selects 1.3 and is not a filter", async () => {
    const res = await get("/api/dcim/sites/?api_version=1.3");
    expect(res.status).to.equal(200);
    expect(res.headers.get("api-version")).to.equal("1.3");
    const root = await get("/api/?api_version=1.3");
    expect(root.headers.get("api-version")).to.equal("1.3");
  });

  it("an empty version (query or header) counts as none: the default", async () => {
    const q = await get("/api/dcim/sites/?api_version=&limit=1");
    expect(q.status).to.equal(200);
    expect(q.headers.get("api-version")).to.equal("1.2");
    const h = await get("/api/dcim/sites/?limit=1", { headers: { Accept: "application/json; version=" } });
    expect(h.status).to.equal(200);
    expect(h.headers.get("api-version")).to.equal("1.2");
  });

  it("other Accept parameters and q-weighted alternatives are fine", async () => {
    const res = await get("/api/dcim/sites/?limit=1", { headers: { Accept: "application/xml, application/json; version=1.3; indent=4; q=0.5" } });
    expect(res.status).to.equal(200);
    expect(res.headers.get("api-version")).to.equal("1.3");
  });

  it("an unsupported version in the Accept header → 406 without API-Version", async () => {
    const res = await get("/api/dcim/sites/", { headers: { Accept: "application/json; version=9.9" } });
    expect(res.status).to.equal(406);
    expect(res.body).to.deep.equal({ detail: 'Invalid version in "Accept" header. Supported versions are 1.2, 1.3, 1.4, 1.5' });
    expect(res.headers.get("api-version")).to.equal(null);
  });

  it("an unsupported api_version query → 404", async () => {
    const res = await get("/api/dcim/sites/?api_version=2.0");
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: "Invalid version in query parameter. Supported versions are 1.2, 1.3, 1.4, 1.5" });
    expect(res.headers.get("api-version")).to.equal(null);
  });

  it("header and query disagreeing → 400 mismatch", async () => {
    const res = await get("/api/dcim/sites/?api_version=1.2", { headers: { Accept: "application/json; version=1.3" } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ detail: 'Version mismatch between "Accept" header and query parameter.' });
    const same = await get("/api/dcim/sites/?api_version=1.3", { headers: { Accept: "application/json; version=1.3" } });
    expect(same.status).to.equal(200);
  });

  it("Accept: text/plain → 406 Could not satisfy", async () => {
    const res = await get("/api/dcim/sites/", { headers: { Accept: "text/plain" } });
    expect(res.status).to.equal(406);
    expect(res.body).to.deep.equal({ detail: "Could not satisfy the request Accept header." });
  });

  it("a bad version on a write is refused before anything is stored", async () => {
    const name = uniq("Tag");
    const res = await post("/api/extras/tags/", { name }, { headers: { Accept: "application/json; version=0.1" } });
    expect(res.status).to.equal(406);
    const list = await get(`/api/extras/tags/?name=${name}`);
    expect(list.body.count).to.equal(0);
  });

  it("errors are DRF-shaped: {detail} for single messages, field lists for validation", async () => {
    const notFound = await get("/api/dcim/sites/00000000-0000-4000-8000-000000000000/");
    expect(notFound.body).to.deep.equal({ detail: "Not found." });
    const invalid = await post("/api/dcim/sites/", { status: "active" });
    expect(invalid.body).to.deep.equal({ name: ["This field is required."] });
  });

  describe("a field whose shape depends on the version: IP address nat_outside", () => {
    const v13 = { headers: { Accept: "application/json; version=1.3" } };
    // Unique per run so the PostgreSQL run can repeat it on a reused database.
    const net = 100 + (process.pid % 100);

    it("1.2 shows one object or null; 1.3 a list", async () => {
      const inside = await post("/api/ipam/ip-addresses/", { address: `198.51.${net}.1/24`, status: "active" });
      expect((await get(`/api/ipam/ip-addresses/${inside.body.id}/`)).body.nat_outside).to.equal(null);
      expect((await get(`/api/ipam/ip-addresses/${inside.body.id}/`, v13)).body.nat_outside).to.deep.equal([]);
      const outside = await post("/api/ipam/ip-addresses/", { address: `198.51.${net}.2/24`, status: "active", nat_inside: inside.body.id });
      expect(outside.status).to.equal(201);
      const old = await get(`/api/ipam/ip-addresses/${inside.body.id}/`);
      expect(old.body.nat_outside).to.include({ id: outside.body.id, address: `198.51.${net}.2/24` });
      const now = await get(`/api/ipam/ip-addresses/${inside.body.id}/`, v13);
      expect(now.body.nat_outside.map((o: { id: string }) => o.id)).to.deep.equal([outside.body.id]);
    });

    it("1.2 answers 412 when several objects would have to fit in one; 1.3 lists them", async () => {
      const inside = await post("/api/ipam/ip-addresses/", { address: `198.51.${net}.10/24`, status: "active" });
      for (const host of [11, 12]) {
        expect((await post("/api/ipam/ip-addresses/", { address: `198.51.${net}.${host}/24`, status: "active", nat_inside: inside.body.id })).status).to.equal(201);
      }
      const old = await get(`/api/ipam/ip-addresses/${inside.body.id}/`);
      expect(old.status).to.equal(412);
      expect(old.body.detail).to.match(/does not conform to pre-1\.3 behavior/);
      const now = await get(`/api/ipam/ip-addresses/${inside.body.id}/`, v13);
      expect(now.status).to.equal(200);
      expect(now.body.nat_outside).to.have.length(2);
      // Other suites list IP addresses in 1.2 on the same server: leave no ambiguous object behind.
      const cleanup = await call("DELETE", "/api/ipam/ip-addresses/", { body: now.body.nat_outside.map((o: { id: string }) => ({ id: o.id })) });
      expect(cleanup.status).to.equal(204);
      expect((await get(`/api/ipam/ip-addresses/${inside.body.id}/`)).status).to.equal(200);
    });
  });
});
