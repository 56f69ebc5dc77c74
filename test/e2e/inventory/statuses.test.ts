// Statuses as rows, as Nautobot's extras.Status: the defaults the migration made, a status a
// user adds for devices usable at once (writes, filters, OPTIONS), statuses refused for models
// they do not name in Nautobot's words, a status in use that cannot be deleted (409, nothing
// changed), a renamed slug followed everywhere, and a list read in one statement.
import { expect } from "chai";
import { call, del, get, patch, post, put } from "../../support/http.js";
import { statements } from "../../support/statements.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

const STATUSES = "/api/extras/statuses/";

describe("inventory e2e: statuses", () => {
  const tag = uniq("st").toLowerCase();
  let site: any, type: any, role: any;

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-model` })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
  });

  const device = (data: Record<string, unknown>) => post("/api/dcim/devices/", { device_type: type.id, device_role: role.id, site: site.id, ...data });

  it("the migration made Nautobot's default statuses, each for its models, with its colour", async () => {
    const active = (await get(`${STATUSES}?slug=active`)).body.results[0];
    expect(active).to.deep.include({ name: "Active", slug: "active", color: "4caf50", display: "Active" });
    expect(active.content_types).to.include.members(["dcim.device", "dcim.site", "ipam.prefix", "virtualization.virtualmachine"]);
    expect(active.content_types).to.not.include("dcim.cable");
    expect(Object.keys(active)).to.deep.equal(["id", "display", "url", "content_types", "name", "slug", "color", "created", "last_updated", "notes_url", "custom_fields"]);
    const cable = (await get(`${STATUSES}?content_types=dcim.cable`)).body.results.map((s: any) => s.slug);
    expect(cable).to.include.members(["connected", "decommissioning", "planned"]);
    const dhcp = (await get(`${STATUSES}?slug=dhcp`)).body.results[0];
    expect(dhcp).to.deep.include({ name: "DHCP", color: "4caf50", content_types: ["ipam.ipaddress"] });
    expect((await get(`${STATUSES}?slug=dhcp&brief=1`)).body.results[0]).to.have.all.keys("id", "url", "display", "name", "slug");
  });

  it("a user's planned-maintenance for devices: set, filtered, offered in OPTIONS, at once", async () => {
    const made = await post(STATUSES, { name: "Planned Maintenance", content_types: ["dcim.device"], color: "ff9800" });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.deep.include({ slug: "planned-maintenance", content_types: ["dcim.device"] });
    const a = await device({ name: `${tag}-a`, status: "planned-maintenance" });
    expect(a.status, a.text).to.equal(201);
    expect(a.body.status).to.deep.equal({ value: "planned-maintenance", label: "Planned Maintenance" });
    const b = await device({ name: `${tag}-b`, status: "Active" });
    expect(b.body.status).to.deep.equal({ value: "active", label: "Active" });
    const patched = await patch(`/api/dcim/devices/${b.body.id}/`, { status: "PLANNED-MAINTENANCE" });
    expect(patched.body.status).to.deep.equal({ value: "planned-maintenance", label: "Planned Maintenance" });
    await patch(`/api/dcim/devices/${b.body.id}/`, { status: "offline" });
    const names = async (q: string) => (await get(`/api/dcim/devices/?site_id=${site.id}&${q}`)).body.results.map((d: any) => d.name).sort();
    expect(await names("status=planned-maintenance")).to.deep.equal([`${tag}-a`]);
    expect(await names("status=planned-maintenance&status=offline")).to.deep.equal([`${tag}-a`, `${tag}-b`]);
    expect(await names("status__n=planned-maintenance")).to.deep.equal([`${tag}-b`]);
    const options = (await call("OPTIONS", "/api/dcim/devices/")).body.actions.POST.status;
    expect(options).to.include({ type: "field", required: true, read_only: false });
    expect(options.choices).to.deep.include({ value: "planned-maintenance", display: "Planned Maintenance" });
    const displays = options.choices.map((c: any) => c.display);
    expect(displays).to.deep.equal([...displays].sort());
    // Not for sites: neither offered nor accepted there.
    const siteOptions = (await call("OPTIONS", "/api/dcim/sites/")).body.actions.POST.status.choices.map((c: any) => c.value);
    expect(siteOptions).to.not.include("planned-maintenance");
  });

  it("a status added straight to the database is offered and accepted without a restart", async () => {
    const { db } = await startTestServer();
    const id = (await db("extras_status").insert({ name: `${tag} Burn-in`, slug: `${tag}-burn-in` }).returning("id"))[0].id;
    await db.raw(`INSERT INTO extras_status_content_types (source_id, contenttype_id) SELECT ?, id FROM extras_contenttype WHERE app_label = 'dcim' AND model = 'device'`, [id]);
    const choices = (await call("OPTIONS", "/api/dcim/devices/")).body.actions.POST.status.choices.map((c: any) => c.value);
    expect(choices).to.include(`${tag}-burn-in`);
    expect((await device({ name: `${tag}-c`, status: `${tag}-burn-in` })).status).to.equal(201);
  });

  it("refuses a status the model does not have, and values that are no slug, in Nautobot's words", async () => {
    const before = await rows("dcim_device");
    const refused: Array<[unknown, string]> = [
      ["connected", "Object with slug=connected does not exist."],
      ["Nope", "Object with slug=nope does not exist."],
      [{ slug: "active" }, "Object with slug={'slug': 'active'} does not exist."],
      [["active"], "Object with slug=['active'] does not exist."],
      [7, "Object with slug=7 does not exist."],
      [null, "This field may not be null."],
      ["", "This field may not be null."],
    ];
    for (const [status, message] of refused) {
      const res = await device({ name: `${tag}-x`, status });
      expect([res.status, res.body], JSON.stringify(status)).to.deep.equal([400, { status: [message] }]);
    }
    const site2 = await post("/api/dcim/sites/", { name: `${tag}-s2`, status: "planned-maintenance" });
    expect([site2.status, site2.body]).to.deep.equal([400, { status: ["Object with slug=planned-maintenance does not exist."] }]);
    expect((await device({ name: `${tag}-x` })).body).to.deep.equal({ status: ["This field is required."] });
    const put1 = await put(`/api/dcim/sites/${site.id}/`, { name: site.name, slug: site.slug });
    expect([put1.status, put1.body]).to.deep.equal([400, { status: ["This field is required."] }]);
    expect(await rows("dcim_device")).to.equal(before);
  });

  it("filters refuse a slug no status has, as Nautobot's StatusFilter", async () => {
    const res = await get("/api/dcim/devices/?status=active&status=no-such-status");
    expect([res.status, res.body]).to.deep.equal([400, { status: ["Select a valid choice. no-such-status is not one of the available choices."] }]);
    expect((await get("/api/dcim/devices/?status__n=nope")).status).to.equal(400);
    // Any status is a valid value, even one that is not the model's (it just matches nothing).
    expect((await get(`/api/dcim/devices/?site_id=${site.id}&status=connected`)).body.count).to.equal(0);
  });

  it("a status in use cannot be deleted (409, nothing changed); an unused one can", async () => {
    const made = (await post(STATUSES, { name: `${tag} Quarantine`, content_types: ["dcim.device"] })).body;
    const d = (await device({ name: `${tag}-q`, status: made.slug })).body;
    const refused = await del(`${STATUSES}${made.id}/`);
    expect(refused.status).to.equal(409);
    expect(refused.body).to.deep.equal({ detail: `Unable to delete object. 1 dependent objects were found: ${tag}-q (${d.id})` });
    expect(await rows("extras_status", { id: made.id })).to.equal(1);
    await patch(`/api/dcim/devices/${d.id}/`, { status: "active" });
    expect((await del(`${STATUSES}${made.id}/`)).status).to.equal(204);
    expect(await rows("extras_status", { id: made.id })).to.equal(0);
  });

  it("a renamed status shows its new slug and name on every object that has it", async () => {
    const made = (await post(STATUSES, { name: `${tag} Lab`, content_types: ["dcim.device", "dcim.site"] })).body;
    const d = (await device({ name: `${tag}-lab`, status: made.slug })).body;
    const renamed = await patch(`${STATUSES}${made.id}/`, { name: `${tag} Test Lab`, slug: `${tag}-test-lab` });
    expect(renamed.status, renamed.text).to.equal(200);
    expect((await get(`/api/dcim/devices/${d.id}/`)).body.status).to.deep.equal({ value: `${tag}-test-lab`, label: `${tag} Test Lab` });
    expect((await get(`/api/dcim/devices/?status=${tag}-test-lab`)).body.count).to.equal(1);
  });

  it("the statuses' own filters and validation: content_types, color, name, q; colour and content types checked", async () => {
    expect((await get(`${STATUSES}?content_types=dcim.cable&q=conn`)).body.results.map((s: any) => s.slug)).to.deep.equal(["connected"]);
    expect((await get(`${STATUSES}?color=00bcd4&name=Reserved`)).body.results.map((s: any) => s.slug)).to.deep.equal(["reserved"]);
    expect((await get(`${STATUSES}?content_types=dcim.manufacturer`)).status).to.equal(400);
    const bad = await post(STATUSES, { name: `${tag} Bad`, content_types: ["dcim.manufacturer"], color: "red" });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body).sort()).to.deep.equal(["color", "content_types"]);
    expect((await post(STATUSES, { name: `${tag} None` })).body).to.deep.equal({ content_types: ["This field is required."] });
  });

  it("a list filtered by status, labels included, is one read", async () => {
    const { sql, status, body } = await statements(`/api/dcim/devices/?limit=50&site_id=${site.id}&status=active&status__n=offline`);
    expect(status).to.equal(200);
    expect(body.results.length).to.be.greaterThan(0);
    expect(body.results[0].status).to.deep.equal({ value: "active", label: "Active" });
    expect(sql.filter((s) => s.includes('"dcim_device"')), sql.join("\n")).to.have.length(1);
    expect(sql, sql.join("\n")).to.have.length(1);
  });
});
