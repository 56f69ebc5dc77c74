// Computed fields and notes, as Nautobot 1.5 has them. Computed fields are rows
// (/api/extras/computed-fields/) whose Jinja2 templates every object of their content type
// shows, rendered, under `computed_fields`: on a GET only with ?include=computed_fields, in
// every reply to a write, the fallback value where a template fails, and never a way out of
// the template engine. Definitions are read per request, so another server instance on the
// same database sees a new one at once. Notes attach to objects: through /api/extras/notes/
// or the object's own notes/ route (its `notes_url`), and go when the object goes.
import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apis } from "../../../generated/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { startTestServer } from "../../support/server.js";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

const CF = "/api/extras/computed-fields/";
const inventory = apis.find((a) => a.name === "inventory")!;

async function computedField(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(CF, { label: uniq("CF"), ...body });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

async function manufacturer(): Promise<Record<string, any>> {
  const res = await post("/api/dcim/manufacturers/", { name: uniq("cfn-maker") });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

const servers: Server[] = [];

/** Another app instance on the shared database; its base URL. */
async function instance(): Promise<string> {
  const { db } = await startTestServer();
  const app = createApp(apis, db, { ...configFromEnv(), publicUrl: undefined, logRequests: false });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

after(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const computedFieldIds = async () => {
  const list = await get(`${CF}?limit=1000`);
  expect(list.status, list.text).to.equal(200);
  return (list.body.results as Array<{ id: string }>).map((c) => c.id);
};

describe("inventory e2e: computed fields", () => {
  // A computed field is rendered in JavaScript: left on a model, every later write's answer
  // of it in this worker would be read into JavaScript, against files that count statements.
  // Here, not at the file's root: under mocha --parallel those ran only after the worker's
  // next files.
  let existing: Set<string>;
  before(async () => {
    existing = new Set(await computedFieldIds());
  });
  after(async () => {
    for (const id of await computedFieldIds()) if (!existing.has(id)) expect((await del(`${CF}${id}/`)).status).to.equal(204);
  });

  it("a computed field takes Nautobot's shape: slug from the label with underscores, weight 100, blank description and fallback", async () => {
    const label = uniq("Rack Code");
    const res = await post(CF, { content_type: "dcim.rack", label, template: "{{ obj.name }}" });
    expect(res.status, res.text).to.equal(201);
    expect(Object.keys(res.body)).to.deep.equal([
      "id", "display", "url", "slug", "label", "description", "content_type", "template", "fallback_value", "weight", "created", "last_updated", "notes_url",
    ]);
    expect(res.body.notes_url).to.equal(`${res.body.url}notes/`);
    expect(res.body).to.include({ label, display: label, slug: label.toLowerCase().replace(/[ -]/g, "_"), description: "", fallback_value: "", weight: 100 });
    const brief = await get(`${CF}${res.body.id}/?brief=1`);
    expect(Object.keys(brief.body)).to.deep.equal(["id", "url", "display", "content_type", "label"]);
  });

  it("refuses what Nautobot refuses: models without custom fields, a label twice for one type, long templates; nothing is made", async () => {
    const label = uniq("Twice");
    await computedField({ content_type: "dcim.site", label, template: "x" });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ content_type: "users.token", template: "x" }, { content_type: ["Invalid content type: users.token"] }],
      [{ content_type: "dcim.site", label, template: "x" }, { non_field_errors: ["The fields content_type, label must make a unique set."] }],
      [{ content_type: "dcim.site", template: "x".repeat(501) }, { template: ["Ensure this field has no more than 500 characters."] }],
      [{ content_type: "dcim.site" }, { template: ["This field is required."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post(CF, { label: uniq("Refused"), ...body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.deep.equal(errors);
    }
    expect(await rows("extras_computedfield", { label })).to.equal(1);
    // The same label on another type is another field.
    await computedField({ content_type: "dcim.rack", label, template: "x" });
  });

  it("objects show computed_fields only when a GET includes them, and in every write's reply", async () => {
    await computedField({ content_type: "dcim.manufacturer", label: uniq("Shout"), slug: "cfn_shout", template: "{{ obj.name | upper }}!" });
    const m = await manufacturer();
    expect(m.computed_fields.cfn_shout).to.equal(`${m.name.toUpperCase()}!`);
    const detail = `/api/dcim/manufacturers/${m.id}/`;
    expect((await get(detail)).body).not.to.have.property("computed_fields");
    expect((await get(`/api/dcim/manufacturers/?id=${m.id}`)).body.results[0]).not.to.have.property("computed_fields");
    const included = await get(`${detail}?include=computed_fields`);
    expect(included.body.computed_fields.cfn_shout).to.equal(`${m.name.toUpperCase()}!`);
    const keys = Object.keys(included.body);
    expect(keys.slice(keys.indexOf("custom_fields"))).to.deep.equal(["custom_fields", "computed_fields"]);
    const listed = await get(`/api/dcim/manufacturers/?id=${m.id}&include=relationships,computed_fields`);
    expect(listed.body.results[0].computed_fields.cfn_shout).to.equal(`${m.name.toUpperCase()}!`);
    const renamed = await patch(detail, { name: `${m.name}-x` });
    expect(renamed.body.computed_fields.cfn_shout).to.equal(`${m.name.toUpperCase()}-X!`);
  });

  it("templates see related objects in their nested form, and loops and conditionals work", async () => {
    const region = await post("/api/dcim/regions/", { name: uniq("cfn-region") });
    const site = await post("/api/dcim/sites/", { name: uniq("cfn-site"), status: "active", region: region.body.id });
    expect(site.status, site.text).to.equal(201);
    const label = uniq("Where");
    const cf = await computedField({
      content_type: "dcim.site", label,
      template: "{% if obj.region %}{{ obj.region.name }}/{% endif %}{{ obj.name }} {{ obj.status.value }}{% for t in obj.tags %}#{{ t.name }}{% endfor %}",
    });
    const res = await get(`/api/dcim/sites/${site.body.id}/?include=computed_fields`);
    expect(res.body.computed_fields[cf.slug]).to.equal(`${region.body.name}/${site.body.name} active`);
  });

  it("a template that fails gives the fallback value, and a hostile one neither escapes nor hangs", async () => {
    const hostile = [
      "{{ ''.constructor.constructor('return process')() }}",
      "{{ obj.__proto__.constructor.constructor('return process.exit()')() }}",
      "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
      "{% set ns = namespace(s='xxxxxxxx') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}",
      "{{ obj.name ",
    ];
    const made = [];
    for (const template of hostile) made.push(await computedField({ content_type: "dcim.platform", template, fallback_value: "fallback" }));
    const quiet = await computedField({ content_type: "dcim.platform", template: "{{ obj.__proto__ }}{{ obj.constructor }}|{{ obj.missing }}" });
    const platform = await post("/api/dcim/platforms/", { name: uniq("cfn-platform") });
    expect(platform.status, platform.text).to.equal(201);
    for (const cf of made) expect(platform.body.computed_fields[cf.slug], cf.template).to.equal("fallback");
    expect(platform.body.computed_fields[quiet.slug]).to.equal("|");
    expect((await get("/api/status/")).status).to.equal(200);
  });

  it("a computed field made on one instance shows on another at once, and goes when deleted", async () => {
    const [first, second] = [await instance(), await instance()];
    const m = await manufacturer();
    const path = `/api/dcim/manufacturers/${m.id}/?include=computed_fields`;
    const { token } = await startTestServer();
    const headers = { Authorization: `Token ${token}`, "Content-Type": "application/json" };
    const before = await (await fetch(`${second}${path}`, { headers })).json();
    const slug = uniq("cfn_late").replace(/-/g, "_");
    const made = await fetch(`${first}${CF}`, { method: "POST", headers, body: JSON.stringify({ content_type: "dcim.manufacturer", label: slug, slug, template: "late {{ obj.name }}" }) });
    expect(made.status).to.equal(201);
    expect(before.computed_fields).not.to.have.property(slug);
    const after = await (await fetch(`${second}${path}`, { headers })).json();
    expect(after.computed_fields[slug]).to.equal(`late ${m.name}`);
    await fetch(`${first}${CF}${(await made.json()).id}/`, { method: "DELETE", headers });
    expect((await (await fetch(`${second}${path}`, { headers })).json()).computed_fields).not.to.have.property(slug);
  });

  it("every model with custom fields offers computed_fields, and only those", () => {
    for (const m of inventory.models) {
      expect(m.fields.some((f) => f.name === "computed_fields"), m.key).to.equal(m.features.customFields);
    }
  });
});

const NOTES = "/api/extras/notes/";

describe("inventory e2e: notes", () => {
  it("a POST to an object's notes/ attaches a note by the requester, in NoteSerializer's shape; a GET pages through them", async () => {
    const m = await manufacturer();
    expect(m.notes_url).to.equal(`${m.url}notes/`);
    const first = await post(`/api/dcim/manufacturers/${m.id}/notes/`, { note: "first", assigned_object_id: "00000000-0000-4000-8000-000000000000" });
    expect(first.status, first.text).to.equal(201);
    expect(Object.keys(first.body)).to.deep.equal([
      "id", "display", "url", "user", "user_name", "assigned_object_type", "assigned_object_id", "assigned_object", "note", "slug", "created", "last_updated",
    ]);
    expect(first.body).to.include({ user_name: "admin", assigned_object_type: "dcim.manufacturer", assigned_object_id: m.id, note: "first" });
    expect(first.body.user).to.include({ username: "admin" });
    expect(first.body.assigned_object).to.include({ id: m.id, name: m.name });
    expect(first.body.slug).to.match(/^manufacturer-\d{4}-\d{2}-\d{2}t\d{12}$/);
    const second = await post(NOTES, { note: "second", assigned_object_type: "dcim.manufacturer", assigned_object_id: m.id });
    expect(second.status, second.text).to.equal(201);
    const listed = await get(`/api/dcim/manufacturers/${m.id}/notes/?limit=1`);
    expect(listed.body.count).to.equal(2);
    expect(listed.body.results).to.have.length(1);
    expect(listed.body.next).to.be.a("string");
    const all = await get(`/api/dcim/manufacturers/${m.id}/notes/`);
    expect(all.body.results.map((n: { note: string }) => n.note).sort()).to.deep.equal(["first", "second"]);
    const filtered = await get(`${NOTES}?assigned_object_id=${m.id}&q=sec`);
    expect(filtered.body.results.map((n: { id: string }) => n.id)).to.deep.equal([second.body.id]);
  });

  it("refuses a note without text, on an unknown object, or not an object", async () => {
    const m = await manufacturer();
    const empty = await post(`/api/dcim/manufacturers/${m.id}/notes/`, {});
    expect(empty.status).to.equal(400);
    expect(empty.body).to.deep.equal({ note: ["This field is required."] });
    expect((await post(`/api/dcim/manufacturers/${m.id}/notes/`, ["x"])).body).to.deep.equal({ non_field_errors: ["Invalid data. Expected a dictionary, but got list."] });
    expect((await get("/api/dcim/manufacturers/00000000-0000-4000-8000-000000000000/notes/")).status).to.equal(404);
    expect((await post("/api/dcim/manufacturers/not-a-uuid/notes/", { note: "x" })).status).to.equal(404);
    const wrongType = await post(NOTES, { note: "x", assigned_object_type: "dcim.consoleporttemplate", assigned_object_id: m.id });
    expect(wrongType.body).to.deep.equal({ assigned_object_type: ["Invalid content type: dcim.consoleporttemplate"] });
    expect(await rows("extras_note", { assigned_object_id: m.id })).to.equal(0);
  });

  it("notes_url and notes/ are on the models with notes only", async () => {
    const template = (await get("/api/dcim/console-port-templates/?limit=1")).body.results[0];
    expect(template).not.to.have.property("notes_url");
    expect((await get(`/api/dcim/console-port-templates/${template.id}/notes/`)).status).to.equal(404);
    for (const path of ["/api/extras/tags/", "/api/extras/config-contexts/", "/api/virtualization/interfaces/", "/api/dcim/interfaces/"]) {
      const one = (await get(`${path}?limit=1`)).body.results[0];
      if (one) expect(one.notes_url, path).to.equal(`${one.url}notes/`);
    }
    const withNotes = inventory.models.filter((m) => m.features.notes).map((m) => m.key);
    expect(withNotes).to.include.members(["dcim.site", "dcim.interface", "extras.tag", "extras.configcontext", "extras.computedfield", "virtualization.vminterface"]);
    expect(withNotes).not.to.include.members(["dcim.consoleporttemplate", "extras.note", "users.token"]);
  });

  it("deleting an object deletes its notes", async () => {
    const m = await manufacturer();
    await post(`/api/dcim/manufacturers/${m.id}/notes/`, { note: "doomed" });
    expect(await rows("extras_note", { assigned_object_id: m.id })).to.equal(1);
    expect((await del(`/api/dcim/manufacturers/${m.id}/`)).status).to.equal(204);
    expect(await rows("extras_note", { assigned_object_id: m.id })).to.equal(0);
  });
});
