// OPTIONS metadata (actions.POST field info, choices as {value, display}), the API root,
// the app roots, /api/status/, and the brief form on lists and details.
import { expect } from "chai";
import { call, get, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { uniq } from "./support.js";

const choicesOf = (fields: Record<string, { choices?: unknown[] }>) => Object.keys(fields).filter((k) => fields[k].choices).sort();

describe("inventory e2e: OPTIONS, roots, status, brief", () => {
  it("OPTIONS on prefixes: POST and PUT actions with field metadata and status choices", async () => {
    const res = await call("OPTIONS", "/api/ipam/prefixes/");
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ name: "Prefix" });
    expect(res.body.renders).to.deep.equal(["application/json", "text/html"]);
    expect(res.body.parses).to.deep.equal(["application/json"]);
    const fields = res.body.actions.POST;
    expect(res.body.actions.PUT).to.deep.equal(fields);
    expect(fields.id).to.include({ type: "string", required: false, read_only: true, label: "ID" });
    expect(fields.prefix).to.include({ type: "string", required: true, read_only: false, label: "Prefix" });
    expect(fields.family).to.include({ required: false, read_only: true });
    expect(fields.site).to.include({ type: "nested object", required: false, read_only: false });
    expect(Object.keys(fields.site.children)).to.include.members(["id", "url", "display", "name", "slug"]);
    expect(fields.is_pool).to.include({ type: "boolean", required: false, read_only: false, label: "Is a pool" });
    // Status rows of this model, by name (Nautobot's Status ordering).
    expect(fields.status).to.include({ type: "field", required: true, read_only: false });
    expect(fields.status.choices).to.deep.equal([
      { value: "active", display: "Active" }, { value: "container", display: "Container" },
      { value: "deprecated", display: "Deprecated" }, { value: "reserved", display: "Reserved" },
    ]);
    expect(choicesOf(fields)).to.deep.equal(["status"]);
  });

  it("OPTIONS on sites and IP addresses: the fields with choices", async () => {
    const sites = await call("OPTIONS", "/api/dcim/sites/");
    expect(choicesOf(sites.body.actions.POST)).to.deep.equal(["status"]);
    for (const c of sites.body.actions.POST.status.choices) expect(Object.keys(c).sort()).to.deep.equal(["display", "value"]);
    const ips = await call("OPTIONS", "/api/ipam/ip-addresses/");
    expect(choicesOf(ips.body.actions.POST)).to.deep.equal(["role", "status"]);
  });

  it("OPTIONS with a read-only token has no actions", async () => {
    const server = await startTestServer();
    const ro = await server.user(uniq("optreader"), { superuser: true, writeEnabled: false });
    const res = await call("OPTIONS", "/api/dcim/sites/", { token: ro.key });
    expect(res.status).to.equal(200);
    expect(res.body).to.not.have.property("actions");
  });

  it("OPTIONS on the users model offers no write actions to a non-superuser, on list and detail alike", async () => {
    const server = await startTestServer();
    const plain = await server.user(uniq("optplain"));
    const admin = await server.db("users_user").select("id").where("username", "admin").first();
    for (const path of ["/api/users/users/", `/api/users/users/${admin.id}/`]) {
      const res = await call("OPTIONS", path, { token: plain.key });
      expect(res.status, path).to.equal(200);
      expect(res.body, path).to.not.have.property("actions");
      const asAdmin = await call("OPTIONS", path);
      expect(asAdmin.body.actions, path).to.have.property("PUT");
    }
  });

  it("GET /api/ lists every app and status as absolute URLs, sorted", async () => {
    const { url } = await startTestServer();
    const res = await get("/api/");
    expect(res.status).to.equal(200);
    const keys = Object.keys(res.body);
    expect(keys).to.deep.equal([...keys].sort());
    expect(keys).to.include.members(["circuits", "dcim", "extras", "ipam", "plugins", "status", "tenancy", "users", "virtualization"]);
    expect(res.body.dcim).to.equal(`${url}/api/dcim/`);
    expect(res.body.status).to.equal(`${url}/api/status/`);
  });

  it("app roots list their models, sorted, with absolute list URLs that work", async () => {
    const { url } = await startTestServer();
    const expected: Record<string, string[]> = {
      dcim: ["regions", "sites"], extras: ["tags"], ipam: ["ip-addresses", "prefixes", "roles", "vrfs"],
      tenancy: ["tenant-groups", "tenants"],
    };
    for (const [app, routes] of Object.entries(expected)) {
      const res = await get(`/api/${app}/`);
      expect(res.status).to.equal(200);
      const keys = Object.keys(res.body);
      expect(keys).to.deep.equal([...keys].sort());
      expect(keys).to.include.members(routes);
      for (const r of routes) {
        expect(res.body[r]).to.equal(`${url}/api/${app}/${r}/`);
        expect((await get(res.body[r])).status).to.equal(200);
      }
    }
  });

  it("GET /api/status/ with a token gives versions and apps", async () => {
    const res = await get("/api/status/");
    expect(res.status).to.equal(200);
    expect(res.body["api-versions"]).to.deep.equal(["1.2", "1.3", "1.4", "1.5"]);
    expect(res.body["installed-apps"]).to.have.property("dcim");
  });

  describe("brief", () => {
    it("?brief=1 on a list gives the brief shape", async () => {
      const res = await get("/api/dcim/sites/?brief=1&limit=1");
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body.results[0]).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
      const prefixes = await get("/api/ipam/prefixes/?brief=true&limit=1");
      expect(Object.keys(prefixes.body.results[0]).sort()).to.deep.equal(["display", "family", "id", "prefix", "url"]);
      expect(prefixes.body.results[0].family).to.be.oneOf([4, 6]);
    });

    it("any non-empty value switches brief on, even 'false'; empty keeps the full form", async () => {
      const site = (await get("/api/dcim/sites/?limit=1")).body.results[0];
      const off = await get(`/api/dcim/sites/${site.id}/?brief=false`);
      expect(Object.keys(off.body).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
      const empty = await get(`/api/dcim/sites/${site.id}/?brief=`);
      expect(empty.body).to.have.property("status");
      expect(empty.body).to.have.property("created");
    });

    it("brief on details follows each model's brief list", async () => {
      const region = await post("/api/dcim/regions/", { name: uniq("Region") });
      const r = await get(`/api/dcim/regions/${region.body.id}/?brief=1`);
      expect(Object.keys(r.body).sort()).to.deep.equal(["_depth", "display", "id", "name", "site_count", "slug", "url"]);
      const vrf = await post("/api/ipam/vrfs/", { name: uniq("VRF") });
      const v = await get(`/api/ipam/vrfs/${vrf.body.id}/?brief=1`);
      expect(Object.keys(v.body).sort()).to.deep.equal(["display", "id", "name", "prefix_count", "rd", "url"]);
      const tag = await post("/api/extras/tags/", { name: uniq("Tag") });
      const t = await get(`/api/extras/tags/${tag.body.id}/?brief=1`);
      expect(Object.keys(t.body).sort()).to.deep.equal(["color", "display", "id", "name", "slug", "url"]);
      const ip = await post("/api/ipam/ip-addresses/", { address: "10.244.0.1/24", status: "active" });
      const i = await get(`/api/ipam/ip-addresses/${ip.body.id}/?brief=1`);
      expect(i.body).to.deep.equal({ id: ip.body.id, url: ip.body.url, display: "10.244.0.1/24", family: 4, address: "10.244.0.1/24" });
    });
  });
});
