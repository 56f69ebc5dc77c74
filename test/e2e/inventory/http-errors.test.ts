// Request-level rules and their DRF-shaped errors: content type (415), malformed JSON (400),
// oversized bodies (413), unknown routes (404), unrouted methods (405), the trailing-slash
// redirect (302), and field validation including related-object resolution. Every bad
// request leaves the database unchanged.
import { expect } from "chai";
import { request as httpRequest } from "node:http";
import { call, del, get, post, patch, put } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { row, rows, uniq, MISSING_ID } from "./support.js";

describe("inventory e2e: HTTP rules and errors", () => {
  describe("content type", () => {
    it("a write without application/json → 415, nothing created", async () => {
      const name = uniq("Tag");
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
        const res = await call("POST", "/api/extras/tags/", { body: JSON.stringify({ name }), raw: true, headers: { "Content-Type": type } });
        expect(res.status, type).to.equal(415);
        expect(res.body).to.deep.equal({ detail: `Unsupported media type "${type}" in request.` });
      }
      const none = await fetch(`${(await startTestServer()).url}/api/extras/tags/`, {
        method: "POST", body: JSON.stringify({ name }), headers: { Authorization: `Token ${(await startTestServer()).token}`, "Content-Type": "" },
      });
      expect(none.status).to.equal(415);
      expect(await rows("extras_tag", { name })).to.equal(0);
    });

    it("application/json with parameters is accepted", async () => {
      for (const type of ["application/json; charset=utf-8", "application/json;", "Application/JSON"]) {
        const name = uniq("Tag");
        const res = await call("POST", "/api/extras/tags/", { body: JSON.stringify({ name }), raw: true, headers: { "Content-Type": type } });
        expect(res.status, type).to.equal(201);
        expect(await rows("extras_tag", { name })).to.equal(1);
      }
    });

    it("PATCH and PUT also need JSON", async () => {
      const tag = await post("/api/extras/tags/", { name: uniq("Tag") });
      const res = await call("PATCH", `/api/extras/tags/${tag.body.id}/`, { body: "description=x", raw: true, headers: { "Content-Type": "text/plain" } });
      expect(res.status).to.equal(415);
      const res2 = await call("PUT", `/api/extras/tags/${tag.body.id}/`, { body: "description=x", raw: true, headers: { "Content-Type": "text/plain" } });
      expect(res2.status).to.equal(415);
      expect((await row("extras_tag", tag.body.id))?.description).to.equal("");
    });
  });

  it("malformed JSON → 400 {detail: 'JSON parse error - …'}, nothing created", async () => {
    const before = await rows("extras_tag");
    const res = await call("POST", "/api/extras/tags/", { body: '{"name": "x",', raw: true });
    expect(res.status).to.equal(400);
    expect(Object.keys(res.body)).to.deep.equal(["detail"]);
    expect(res.body.detail).to.match(/^JSON parse error - ./);
    expect(await rows("extras_tag")).to.equal(before);
  });

  it("a body over BODY_LIMIT → 413 in DRF shape", async () => {
    const before = await rows("extras_tag");
    const big = JSON.stringify({ name: uniq("Tag"), description: "x".repeat(1024 * 1024 + 10) });
    const res = await call("POST", "/api/extras/tags/", { body: big, raw: true });
    expect(res.status).to.equal(413);
    expect(Object.keys(res.body)).to.deep.equal(["detail"]);
    expect(res.body.detail).to.be.a("string").and.not.equal("");
    expect(await rows("extras_tag")).to.equal(before);
  });

  it("a single DELETE needs no body and no content type", async () => {
    const tag = await post("/api/extras/tags/", { name: uniq("Tag") });
    const res = await call("DELETE", `/api/extras/tags/${tag.body.id}/`);
    expect(res.status).to.equal(204);
    expect(await rows("extras_tag", { id: tag.body.id })).to.equal(0);
  });

  it("HEAD answers like GET without a body", async () => {
    const res = await call("HEAD", "/api/dcim/sites/");
    expect(res.status).to.equal(200);
    expect(res.text).to.equal("");
    expect(res.headers.get("api-version")).to.equal("1.2");
  });

  it("an unknown path under /api/ → 404 {detail: 'Not found.'}", async () => {
    for (const path of ["/api/dcim/nothing/", "/api/nothing/", "/api/dcim/sites/a/b/"]) {
      const res = await get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ detail: "Not found." });
    }
  });

  it("a method not routed → 405 {detail} with Allow", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
    const res = await post(`/api/dcim/sites/${site.body.id}/`, { name: "x" });
    expect(res.status).to.equal(405);
    expect(res.body).to.deep.equal({ detail: 'Method "POST" not allowed.' });
    expect(res.headers.get("allow")).to.equal("GET, PUT, PATCH, DELETE, HEAD, OPTIONS");
    const root = await post("/api/", {});
    expect(root.status).to.equal(405);
  });

  it("a request line in absolute form (a client whose HTTP proxy is the server) is served", async () => {
    const { url, token } = await startTestServer();
    const { port } = new URL(url);
    const answer: { status: number; body: { count: number; next: string | null } } = await new Promise((resolve, reject) => {
      const req = httpRequest({
        host: "127.0.0.1", port, method: "GET", path: "http://nautobot.example:8000/api/dcim/sites/?limit=1",
        headers: { Host: "nautobot.example:8000", Authorization: `Token ${token}`, Accept: "application/json" },
      }, (res) => {
        let text = "";
        res.on("data", (chunk) => { text += chunk; });
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).to.equal(200);
    expect(answer.body.count).to.be.greaterThan(1);
    expect(answer.body.next).to.equal("http://nautobot.example:8000/api/dcim/sites/?limit=1&offset=1");
  });

  describe("trailing slash", () => {
    it("a detail path without the slash → 302 to the slashed path (query kept)", async () => {
      const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
      const res = await get(`/api/dcim/sites/${site.body.id}?brief=1`);
      expect(res.status).to.equal(302);
      expect(res.headers.get("location")).to.equal(`/api/dcim/sites/${site.body.id}/?brief=1`);
      const followed = await get(new URL(res.headers.get("location")!, (await startTestServer()).url).href);
      expect(followed.status).to.equal(200);
      expect(followed.body.id).to.equal(site.body.id);
    });

    it("a list path without the slash → 302 as well", async () => {
      const res = await get("/api/dcim/sites");
      expect(res.status).to.equal(302);
      expect(res.headers.get("location")).to.equal("/api/dcim/sites/");
    });

    it("the API root without the slash → 302 to /api/ (query kept)", async () => {
      const res = await get("/api?api_version=1.3", { token: null });
      expect(res.status).to.equal(302);
      expect(res.headers.get("location")).to.equal("/api/?api_version=1.3");
    });
  });

  describe("renderer selection", () => {
    it("an unknown ?format= → 404 in DRF shape; json and api are served", async () => {
      const bad = await get("/api/dcim/sites/?format=xml");
      expect(bad.status).to.equal(404);
      expect(bad.body).to.deep.equal({ detail: "Not found." });
      const json = await get("/api/dcim/sites/?format=json");
      expect(json.status).to.equal(200);
      expect(json.body.results).to.be.an("array");
      const html = await get("/api/dcim/sites/?format=api");
      expect(html.status).to.equal(200);
      expect(html.headers.get("content-type")).to.match(/^text\/html/);
      expect(html.text).to.include("&quot;results&quot;");
    });
  });

  describe("field validation", () => {
    it("missing required fields, bad types, bad choices, too long → field-keyed 400", async () => {
      const before = await rows("dcim_site");
      const res = await post("/api/dcim/sites/", { status: "bogus", asn: "many", name: "x".repeat(101) });
      expect(res.status).to.equal(400);
      expect(res.body.status).to.deep.equal(["Object with slug=bogus does not exist."]);
      expect(res.body.asn).to.deep.equal(["A valid integer is required."]);
      expect(res.body.name).to.deep.equal(["Ensure this field has no more than 100 characters."]);
      const res2 = await post("/api/dcim/sites/", {});
      expect(res2.body).to.deep.equal({ name: ["This field is required."], status: ["This field is required."] });
      expect(await rows("dcim_site")).to.equal(before);
    });

    it("one clear message per problem, also on nullable and blank-allowing fields", async () => {
      const before = await rows("dcim_site");
      const res = await post("/api/dcim/sites/", { name: uniq("Site"), status: null, contact_email: "nope", time_zone: 5, description: null });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        status: ["This field may not be null."],
        contact_email: ["Enter a valid email address."],
        time_zone: ["Not a valid string."],
        description: ["This field may not be null."],
      });
      const dict = await post("/api/dcim/sites/", { name: uniq("Site"), status: { value: "active", label: "Active" } });
      // A status is a slug-related field: Django compares a dictionary by its text.
      expect(dict.body).to.deep.equal({ status: ["Object with slug={'value': 'active', 'label': 'Active'} does not exist."] });
      const blank = await post("/api/dcim/sites/", { name: "", status: "active" });
      expect(blank.body).to.deep.equal({ name: ["This field may not be blank."] });
      expect(await rows("dcim_site")).to.equal(before);
      const ok = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", contact_email: "", time_zone: null });
      expect(ok.status).to.equal(201);
    });

    it("numeric bounds and unique fields", async () => {
      const low = await post("/api/ipam/roles/", { name: uniq("Role"), weight: -1 });
      expect(low.status).to.equal(400);
      expect(low.body).to.deep.equal({ weight: ["Ensure this value is greater than or equal to 0."] });
      const name = uniq("Role");
      expect((await post("/api/ipam/roles/", { name })).status).to.equal(201);
      const dup = await post("/api/ipam/roles/", { name });
      expect(dup.status).to.equal(400);
      expect(dup.body).to.deep.equal({ name: ["role with this name already exists."] });
      expect(await rows("ipam_role", { name })).to.equal(1);
    });

    it("bad CIDR / IP values → 400 naming the field", async () => {
      const before = await rows("ipam_prefix");
      const p = await post("/api/ipam/prefixes/", { prefix: "10.0.0.300/8", status: "active" });
      expect(p.status).to.equal(400);
      expect(p.body).to.have.property("prefix");
      const ip = await post("/api/ipam/ip-addresses/", { address: "nonsense", status: "active" });
      expect(ip.status).to.equal(400);
      expect(ip.body).to.deep.equal({ address: ["Invalid IP address format: nonsense"] });
      expect(await rows("ipam_prefix")).to.equal(before);
    });

    it("a body that is not an object → 400 non_field_errors with the Python type name", async () => {
      const before = await rows("dcim_site");
      for (const [body, type] of [[null, "NoneType"], ["hello", "str"], [5, "int"]] as const) {
        const res = await post("/api/dcim/sites/", body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
      }
      const many = await post("/api/dcim/sites/", [{ name: uniq("Site"), status: "active" }, []]);
      expect(many.status).to.equal(400);
      expect(many.body).to.deep.equal([{}, { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] }]);
      expect(await rows("dcim_site")).to.equal(before);
    });

    it("NUL characters in strings → 400 naming the field, nothing stored", async () => {
      const before = await rows("dcim_site");
      const res = await post("/api/dcim/sites/", { name: "nul\u0000name", status: "active" });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ name: ["Null characters are not allowed."] });
      const rel = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", region: { name: "x\u0000" }, tags: [{ slug: "\u0000" }] });
      expect(rel.status).to.equal(400);
      expect(rel.body).to.deep.equal({ region: ["Null characters are not allowed."], tags: ["Null characters are not allowed."] });
      expect(await rows("dcim_site")).to.equal(before);
    });

    it("a PATCH with an invalid value changes nothing", async () => {
      const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", facility: "F" });
      const res = await patch(`/api/dcim/sites/${site.body.id}/`, { facility: "G", status: "nope" });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ status: ["Object with slug=nope does not exist."] });
      expect((await row("dcim_site", site.body.id))?.facility).to.equal("F");
    });
  });

  describe("related objects by UUID or attributes", () => {
    it("by UUID and by an attribute dictionary that matches one object", async () => {
      const region = await post("/api/dcim/regions/", { name: uniq("Region") });
      const a = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", region: region.body.id });
      const b = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", region: { name: region.body.name } });
      expect(a.status).to.equal(201);
      expect(b.status).to.equal(201);
      expect(a.body.region.id).to.equal(region.body.id);
      expect(b.body.region.id).to.equal(region.body.id);
      expect((await row("dcim_site", b.body.id))?.region_id).to.equal(region.body.id);
    });

    it("unknown UUID → 400 naming the field", async () => {
      const name = uniq("Site");
      const res = await post("/api/dcim/sites/", { name, status: "active", region: MISSING_ID });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ region: [`Related object not found using the provided ID: ${MISSING_ID}`] });
      expect(await rows("dcim_site", { name })).to.equal(0);
    });

    it("attributes matching nothing → 400 naming the field", async () => {
      const name = uniq("Site");
      const res = await post("/api/dcim/sites/", { name, status: "active", region: { name: "no such region" } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ region: ["Related object not found using the provided attributes: {'name': 'no such region'}"] });
      expect(await rows("dcim_site", { name })).to.equal(0);
    });

    it("an integer attribute is read as Django's int() reads it", async () => {
      const name = uniq("vlan");
      const vlan = await post("/api/ipam/vlans/", { vid: 3917, name, status: "active" });
      expect(vlan.status, vlan.text).to.equal(201);
      for (const vid of ["03917", " 3_917 ", 3917.6]) {
        const res = await post("/api/ipam/prefixes/", { prefix: "10.254.17.0/24", status: "active", vlan: { vid, name } });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.vlan.id).to.equal(vlan.body.id);
        expect((await del(`/api/ipam/prefixes/${res.body.id}/`)).status).to.equal(204);
      }
      for (const vid of ["3917x", "39.17", 1e300]) {
        const res = await post("/api/ipam/prefixes/", { prefix: "10.254.17.0/24", status: "active", vlan: { vid, name } });
        expect(res.status, res.text).to.equal(400);
        expect(res.body.vlan[0]).to.match(/^Related object not found using the provided attributes: /);
      }
      expect((await del(`/api/ipam/vlans/${vlan.body.id}/`)).status).to.equal(204);
    });

    it("an object as a read gave it names itself: its URL and display are dropped, as DRF drops them", async () => {
      const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
      expect(site.status, site.text).to.equal(201);
      const brief = (await get(`/api/dcim/sites/${site.body.id}/?brief=1`)).body;
      expect(brief).to.have.keys("id", "url", "display", "name", "slug");
      const vlan = await post("/api/ipam/vlans/", { vid: 3918, name: uniq("vlan"), status: "active", site: brief });
      expect(vlan.status, vlan.text).to.equal(201);
      expect(vlan.body.site.id).to.equal(site.body.id);
      // What is left of a wrong one is what the problem shows, without the dropped fields.
      const wrong = await post("/api/ipam/vlans/", { vid: 3918, name: uniq("vlan"), status: "active", site: { ...brief, name: "elsewhere" } });
      expect(wrong.status).to.equal(400);
      expect(wrong.body).to.deep.equal({ site: [`Related object not found using the provided attributes: {'id': '${brief.id}', 'name': 'elsewhere', 'slug': '${brief.slug}'}`] });
      expect((await del(`/api/ipam/vlans/${vlan.body.id}/`)).status).to.equal(204);
      expect((await del(`/api/dcim/sites/${site.body.id}/`)).status).to.equal(204);
    });

    it("attributes matching several objects → 400 naming the field", async () => {
      const description = uniq("shared");
      await post("/api/tenancy/tenants/", [{ name: uniq("T"), description }, { name: uniq("T"), description }]);
      const name = uniq("Site");
      const res = await post("/api/dcim/sites/", { name, status: "active", tenant: { description } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ tenant: [`Multiple objects match the provided attributes: {'description': '${description}'}`] });
      expect(await rows("dcim_site", { name })).to.equal(0);
    });

    it("neither a UUID nor a dictionary → 400 naming the field", async () => {
      const name = uniq("Site");
      const res = await post("/api/dcim/sites/", { name, status: "active", region: "foo" });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ region: ["Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: foo"] });
      expect(await rows("dcim_site", { name })).to.equal(0);
    });

    it("an unknown tag in a PUT leaves the object unchanged", async () => {
      const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
      const res = await put(`/api/dcim/sites/${site.body.id}/`, { name: site.body.name, status: "planned", tags: [{ slug: "no-such-tag" }] });
      expect(res.status).to.equal(400);
      expect(res.body).to.have.property("tags");
      expect((await row("dcim_site", site.body.id))?.status).to.equal("active");
    });
  });
});
