// Single-object CRUD over HTTP: list, retrieve, create (201 + Location), PUT (every required
// field), PATCH (only what changes), DELETE (204, no body), and the common fields.
import { expect } from "chai";
import { get, post, put, patch, del } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { row, rows, uniq, UUID_RE, MISSING_ID } from "./support.js";

describe("inventory e2e: CRUD", () => {
  it("creates a site: 201, Location, common fields, stored row", async () => {
    const server = await startTestServer();
    const name = uniq("Site");
    const res = await post("/api/dcim/sites/", { name, status: "active", asn: 65001 });
    expect(res.status).to.equal(201);
    expect(res.body.id).to.match(UUID_RE);
    expect(res.body.url).to.equal(`${server.url}/api/dcim/sites/${res.body.id}/`);
    expect(res.headers.get("location")).to.equal(res.body.url);
    expect(res.body.display).to.equal(name);
    expect(res.body.name).to.equal(name);
    expect(res.body.slug).to.equal(name.toLowerCase());
    expect(res.body.status).to.deep.equal({ value: "active", label: "Active" });
    expect(res.body.tags).to.deep.equal([]);
    // The demo's select custom field of sites, which has no default.
    expect(res.body.custom_fields).to.deep.equal({ site_tier: null });
    expect(res.body.created).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.last_updated).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(res.body.region).to.equal(null);
    const stored = await row("dcim_site", res.body.id);
    expect(stored?.name).to.equal(name);
    expect(Number(stored?.asn)).to.equal(65001);
  });

  it("retrieves one object and lists it", async () => {
    const name = uniq("Tenant");
    const created = await post("/api/tenancy/tenants/", { name });
    // A write's reply has the opt-in fields; a GET names them to get them too.
    const one = await get(`/api/tenancy/tenants/${created.body.id}/?include=computed_fields,relationships`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(created.body);
    const list = await get(`/api/tenancy/tenants/?name=${name}`);
    expect(list.status).to.equal(200);
    expect(list.body.count).to.equal(1);
    expect(list.body.results[0].id).to.equal(created.body.id);
  });

  it("nests related objects in their nested shape", async () => {
    const region = await post("/api/dcim/regions/", { name: uniq("Region") });
    const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "planned", region: region.body.id });
    expect(site.status).to.equal(201);
    // Embedded objects carry the seed's nested fields, without counts.
    expect(site.body.region).to.deep.equal({ id: region.body.id, url: region.body.url, display: region.body.name, name: region.body.name, slug: region.body.slug, _depth: 0 });
    const prefix = await post("/api/ipam/prefixes/", { prefix: "10.240.0.0/16", status: "active", site: site.body.id });
    expect(prefix.status).to.equal(201);
    expect(prefix.body.family).to.deep.equal({ value: 4, label: "IPv4" });
    expect(prefix.body.site).to.deep.equal({ id: site.body.id, url: site.body.url, display: site.body.name, name: site.body.name, slug: site.body.slug });
    const vrf = await post("/api/ipam/vrfs/", { name: uniq("VRF"), rd: `64999:${process.pid}` });
    const role = await post("/api/ipam/roles/", { name: uniq("Role") });
    const p2 = await patch(`/api/ipam/prefixes/${prefix.body.id}/`, { vrf: vrf.body.id, role: { slug: role.body.slug } });
    expect(p2.body.vrf).to.deep.equal({ id: vrf.body.id, url: vrf.body.url, display: `${vrf.body.name} (${vrf.body.rd})`, name: vrf.body.name, rd: vrf.body.rd });
    expect(p2.body.role).to.deep.equal({ id: role.body.id, url: role.body.url, display: role.body.name, name: role.body.name, slug: role.body.slug });
    // A top-level brief form keeps its counts.
    expect((await get(`/api/ipam/vrfs/${vrf.body.id}/?brief=1`)).body.prefix_count).to.equal(1);
  });

  it("unknown or malformed id on a detail route → 404 {detail}", async () => {
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      const res = await get(`/api/dcim/sites/${id}/`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: "Not found." });
    }
  });

  it("PUT needs every required field; a complete body replaces", async () => {
    const name = uniq("Site");
    const site = await post("/api/dcim/sites/", { name, status: "active", facility: "F1" });
    const missing = await put(`/api/dcim/sites/${site.body.id}/`, { facility: "F2" });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ name: ["This field is required."], status: ["This field is required."] });
    expect((await row("dcim_site", site.body.id))?.facility).to.equal("F1");
    const full = await put(`/api/dcim/sites/${site.body.id}/`, { name: `${name}-x`, status: "retired", facility: "F3" });
    expect(full.status).to.equal(200);
    expect(full.body.name).to.equal(`${name}-x`);
    expect(full.body.status.value).to.equal("retired");
    const stored = await row("dcim_site", site.body.id);
    expect(stored?.facility).to.equal("F3");
    expect(stored?.status).to.equal("retired");
  });

  it("PATCH changes only the given fields", async () => {
    const name = uniq("Site");
    const site = await post("/api/dcim/sites/", { name, status: "active", facility: "F1", description: "keep" });
    const res = await patch(`/api/dcim/sites/${site.body.id}/`, { facility: "F9" });
    expect(res.status).to.equal(200);
    expect(res.body.facility).to.equal("F9");
    expect(res.body.description).to.equal("keep");
    expect(res.body.name).to.equal(name);
    const stored = await row("dcim_site", site.body.id);
    expect(stored).to.include({ facility: "F9", description: "keep", name, status: "active" });
  });

  it("an optional related field that is not nullable refuses null (Tenant.group)", async () => {
    const group = await post("/api/tenancy/tenant-groups/", { name: uniq("Group") });
    const created = await post("/api/tenancy/tenants/", { name: uniq("Tenant"), group: null });
    expect(created.status).to.equal(400);
    expect(created.body).to.deep.equal({ group: ["This field may not be null."] });
    const tenant = await post("/api/tenancy/tenants/", { name: uniq("Tenant"), group: group.body.id });
    const cleared = await patch(`/api/tenancy/tenants/${tenant.body.id}/`, { group: null });
    expect(cleared.status).to.equal(400);
    expect(cleared.body).to.deep.equal({ group: ["This field may not be null."] });
    expect((await row("tenancy_tenant", tenant.body.id))?.group_id).to.equal(group.body.id);
    // Left out, it stays optional; a nullable one still takes null.
    expect((await post("/api/tenancy/tenants/", { name: uniq("Tenant") })).body.group).to.equal(null);
    expect((await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", region: null })).status).to.equal(201);
  });

  it("GET → modify → PUT round-trips: read-only keys are ignored, unknown keys refused", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", facility: "F1" });
    const fetched = (await get(`/api/dcim/sites/${site.body.id}/`)).body;
    const res = await put(`/api/dcim/sites/${site.body.id}/`, { ...fetched, status: "staging", region: null, tenant: null });
    expect(res.status).to.equal(200);
    expect(res.body.status.value).to.equal("staging");
    expect(res.body.id).to.equal(site.body.id);
    // An unknown key is ignored, as DRF ignores it (STRICT_WRITE_FIELDS would refuse it).
    const unknown = await patch(`/api/dcim/sites/${site.body.id}/`, { facility: "F2", colour: "red" });
    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.not.have.property("colour");
    expect(await row("dcim_site", site.body.id)).to.include({ facility: "F2", status: "staging" });
  });

  it("DELETE → 204 with no body, and the row is gone", async () => {
    const tag = await post("/api/extras/tags/", { name: uniq("Tag") });
    const res = await del(`/api/extras/tags/${tag.body.id}/`);
    expect(res.status).to.equal(204);
    expect(res.text).to.equal("");
    expect(await rows("extras_tag", { id: tag.body.id })).to.equal(0);
    expect((await get(`/api/extras/tags/${tag.body.id}/`)).status).to.equal(404);
  });

  it("DELETE of a protected object → 409 naming the dependents, nothing deleted", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
    const p = await post("/api/ipam/prefixes/", { prefix: "10.241.0.0/16", status: "active", site: site.body.id });
    const res = await del(`/api/dcim/sites/${site.body.id}/`);
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ detail: `Unable to delete object. 1 dependent objects were found: 10.241.0.0/16 (${p.body.id})` });
    expect(await rows("dcim_site", { id: site.body.id })).to.equal(1);
  });

  it("tags are written by id or attributes and read back nested", async () => {
    const t1 = await post("/api/extras/tags/", { name: uniq("Tag"), color: "aa1409" });
    const t2 = await post("/api/extras/tags/", { name: uniq("Tag") });
    const site = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active", tags: [t1.body.id, { slug: t2.body.slug }] });
    expect(site.status).to.equal(201);
    expect(site.body.tags.map((t: { id: string }) => t.id).sort()).to.deep.equal([t1.body.id, t2.body.id].sort());
    expect(site.body.tags.find((t: { id: string }) => t.id === t1.body.id)).to.include({ name: t1.body.name, slug: t1.body.slug, color: "aa1409" });
    const cleared = await patch(`/api/dcim/sites/${site.body.id}/`, { tags: [] });
    expect(cleared.body.tags).to.deep.equal([]);
    expect(await rows("extras_tag_assignment", { object_id: site.body.id })).to.equal(0);
  });

  it("tree models: parent is nested, _depth follows the tree, a cycle is refused", async () => {
    const root = await post("/api/tenancy/tenant-groups/", { name: uniq("TG") });
    const child = await post("/api/tenancy/tenant-groups/", { name: uniq("TG"), parent: root.body.id });
    expect(child.status).to.equal(201);
    expect(child.body.parent.id).to.equal(root.body.id);
    expect(child.body._depth).to.equal(1);
    const cycle = await patch(`/api/tenancy/tenant-groups/${root.body.id}/`, { parent: child.body.id });
    expect(cycle.status).to.equal(400);
    expect(cycle.body).to.have.property("parent");
    expect((await row("tenancy_tenantgroup", root.body.id))?.parent_id).to.equal(null);
  });

  it("creates an IP address; family and choices are objects, role may be null", async () => {
    const res = await post("/api/ipam/ip-addresses/", { address: "10.242.0.1/24", status: "active" });
    expect(res.status).to.equal(201);
    expect(res.body.address).to.equal("10.242.0.1/24");
    expect(res.body.family).to.deep.equal({ value: 4, label: "IPv4" });
    expect(res.body.status).to.deep.equal({ value: "active", label: "Active" });
    expect(res.body.role).to.equal(null);
    const v6 = await post("/api/ipam/ip-addresses/", { address: "2001:db8:242::1/64", status: "dhcp", role: "vip" });
    expect(v6.body.family).to.deep.equal({ value: 6, label: "IPv6" });
    expect(v6.body.role).to.deep.equal({ value: "vip", label: "VIP" });
    // A blank-allowing choice takes "" and null alike, and reads back as null.
    for (const role of ["", null]) {
      const cleared = await patch(`/api/ipam/ip-addresses/${v6.body.id}/`, { role });
      expect(cleared.status).to.equal(200);
      expect(cleared.body.role).to.equal(null);
      await patch(`/api/ipam/ip-addresses/${v6.body.id}/`, { role: "vip" });
    }
    const bad = await patch(`/api/ipam/ip-addresses/${v6.body.id}/`, { role: "boss" });
    expect(bad.body).to.deep.equal({ role: ["boss is not a valid choice."] });
    const blankStatus = await post("/api/ipam/ip-addresses/", { address: "10.242.0.2/24", status: "" });
    // DRF's related fields take "" as null (StatusSerializerField is one).
    expect(blankStatus.body).to.deep.equal({ status: ["This field may not be null."] });
  });
});
