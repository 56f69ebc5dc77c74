// Export templates over HTTP: Nautobot 1.5's ExportTemplate fields and refusals, and
// `?export=<name>` on any list, which renders the template over every object the list's
// filters and the requester's permissions select (read in one statement), sent as a named file
// attachment as Nautobot's list views send it.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { statements } from "../../support/statements.js";
import { rows, uniq } from "./support.js";

const TEMPLATES = "/api/extras/export-templates/";
const SITES = "/api/dcim/sites/";
const NOT_FOUND = { detail: "Not found." };

describe("inventory e2e: export templates", () => {
  const tag = uniq("et").toLowerCase();
  const csv = `${tag}-csv`;

  before(async () => {
    for (const [name, status] of [["a", "active"], ["b", "planned"], ["c", "active"]]) {
      const made = await post(SITES, { name: `${tag}-${name}`, status, description: `site ${name}` });
      expect(made.status, made.text).to.equal(201);
    }
  });

  it("creates a template with Nautobot's fields, a file extension without its dot", async () => {
    const made = await post(TEMPLATES, {
      content_type: "dcim.site", name: csv, description: "Sites as CSV", mime_type: "text/csv", file_extension: ".csv",
      template_code: "name,status\r\n{% for s in queryset %}{{ s.name }},{{ s.status.value }}\r\n{% endfor %}",
    });
    expect(made.status, made.text).to.equal(201);
    expect(Object.keys(made.body)).to.deep.equal([
      "id", "display", "url", "content_type", "owner_content_type", "owner_object_id", "owner", "name", "description", "template_code",
      "mime_type", "file_extension", "created", "last_updated", "notes_url",
    ]);
    expect(made.body).to.deep.include({ display: `DCIM | site: ${csv}`, file_extension: "csv", owner_content_type: null, owner_object_id: null, owner: null });
    expect((await get(`${TEMPLATES}${made.body.id}/?brief=1`)).body).to.have.all.keys("id", "url", "display", "name");
    expect((await get(`${TEMPLATES}?content_type=dcim.site&name=${csv}`)).body.results.map((t: { id: string }) => t.id)).to.deep.equal([made.body.id]);
    expect((await get(`${TEMPLATES}?q=${tag}`)).body.count).to.equal(1);
    const renamed = await patch(`${TEMPLATES}${made.body.id}/`, { file_extension: ".CSV" });
    expect(renamed.body.file_extension).to.equal("CSV");
    await patch(`${TEMPLATES}${made.body.id}/`, { file_extension: "csv" });
  });

  it("refuses a second template of one name and content type, and what the fields refuse", async () => {
    const base = { content_type: "dcim.site", name: csv, template_code: "x" };
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [base, { name: ["An ExportTemplate with this name and content type already exists."] }],
      [{ ...base, name: `${tag}-x`, template_code: undefined }, { template_code: ["This field is required."] }],
      [{ ...base, name: `${tag}-x`, content_type: "dcim.nothing" }, { content_type: ["Invalid content type: dcim.nothing"] }],
      [{ ...base, name: `${tag}-x`, file_extension: "e".repeat(16) }, { file_extension: ["Ensure this field has no more than 15 characters."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post(TEMPLATES, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("extras_exporttemplate", { name: `${tag}-x` })).to.equal(0);
    // The same name for another content type is another template.
    const device = await post(TEMPLATES, { ...base, content_type: "dcim.device" });
    expect(device.status, device.text).to.equal(201);
    expect((await del(`${TEMPLATES}${device.body.id}/`)).status).to.equal(204);
  });

  it("?export renders the template over the filtered list, every page of it, as a named attachment", async () => {
    const res = await fetch(`${(await startTestServer()).url}${SITES}?q=${tag}&status=active&limit=1&export=${csv}`, {
      headers: { Authorization: `Token ${(await startTestServer()).token}` },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("text/csv");
    expect(res.headers.get("content-disposition")).to.equal('attachment; filename="nautobot_sites.csv"');
    expect(await res.text()).to.equal(`name,status\n${tag}-a,active\n${tag}-c,active\n`);
  });

  it("reads the list in one statement", async () => {
    const { sql, status } = await statements(`${SITES}?q=${tag}&export=${csv}`);
    expect(status).to.equal(200);
    expect(sql.filter((s) => s.includes('"dcim_site"'))).to.have.length(1);
    expect(sql).to.have.length(2); // the template, then the list
  });

  it("a template without a type or extension is text/plain named after the model", async () => {
    await post(TEMPLATES, { content_type: "dcim.site", name: `${tag}-plain`, template_code: "{{ queryset | length }} sites: {% for s in queryset %}{{ s.description }};{% endfor %}" });
    const res = await get(`${SITES}?q=${tag}&export=${tag}-plain`);
    expect([res.status, res.text]).to.deep.equal([200, `3 sites: site a;site b;site c;`]);
    expect(res.headers.get("content-type")).to.equal("text/plain");
    expect(res.headers.get("content-disposition")).to.equal('attachment; filename="nautobot_sites"');
  });

  it("answers an unknown template as Nautobot does (404), and a bad filter or template with a 400", async () => {
    expect([(await get(`${SITES}?export=${tag}-nothing`)).status, (await get(`${SITES}?export=${tag}-nothing`)).body]).to.deep.equal([404, NOT_FOUND]);
    // A template of another content type is not one of this list.
    expect((await get(`/api/dcim/devices/?export=${csv}`)).status).to.equal(404);
    const bad = await get(`${SITES}?status=nope&export=${csv}`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.have.key("status");
    await post(TEMPLATES, { content_type: "dcim.site", name: `${tag}-broken`, template_code: "{% for s in queryset %}" });
    const broken = await get(`${SITES}?export=${tag}-broken`);
    expect(broken.status).to.equal(400);
    expect(broken.body.detail).to.match(new RegExp(`^There was an error rendering the selected export template \\(${tag}-broken\\): .+`));
    // Without the parameter the list is the usual JSON list.
    expect((await get(`${SITES}?q=${tag}`)).body.count).to.equal(3);
  });

  it("exports only what the requester may view", async () => {
    const server = await startTestServer();
    const some = (await server.user(uniq(`${tag}-u`), { grants: [{ object_types: ["dcim.site"], actions: ["view"], constraints: { slug: `${tag}-c` } }] })).key;
    const res = await get(`${SITES}?export=${csv}`, { token: some });
    expect([res.status, res.text]).to.deep.equal([200, `name,status\n${tag}-c,active\n`]);
    const none = (await server.user(uniq(`${tag}-u`), { grants: [] })).key;
    expect((await get(`${SITES}?export=${csv}`, { token: none })).status).to.equal(403);
    expect((await get(`${SITES}?export=${csv}`, { token: null })).status).to.equal(403);
  });
});
