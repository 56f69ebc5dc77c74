// Custom links over HTTP: Nautobot 1.5's CustomLink fields, defaults and refusals, its filter
// set, and the `render` action (this server's extension: Nautobot renders links in its pages
// only), which renders a link's text and URL for one object the requester may view.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq, MISSING_ID } from "./support.js";

const LINKS = "/api/extras/custom-links/";
const DENIED = { detail: "You do not have permission to perform this action." };

describe("inventory e2e: custom links", () => {
  const tag = uniq("cl").toLowerCase();
  let site: { id: string; name: string; slug: string };
  let other: { id: string };

  before(async () => {
    const made = await post("/api/dcim/sites/", { name: `${tag}-ams`, status: "active" });
    expect(made.status, made.text).to.equal(201);
    site = made.body;
    other = (await post("/api/dcim/sites/", { name: `${tag}-fra`, status: "planned" })).body;
  });

  it("creates a link with Nautobot's fields and defaults, and reads it back", async () => {
    const made = await post(LINKS, { name: `${tag} Wiki`, content_type: "dcim.site", text: "Wiki {{ obj.name }}", target_url: "https://wiki/{{ obj.slug }}", new_window: false });
    expect(made.status, made.text).to.equal(201);
    expect(Object.keys(made.body)).to.deep.equal([
      "id", "display", "url", "target_url", "name", "content_type", "text", "weight", "group_name", "button_class", "new_window", "created", "last_updated", "notes_url",
    ]);
    expect(made.body).to.deep.include({ display: `${tag} Wiki`, weight: 100, group_name: "", button_class: "default", new_window: false, content_type: "dcim.site" });
    expect(made.body.url).to.match(new RegExp(`/api/extras/custom-links/${made.body.id}/$`));
    const read = await get(`${LINKS}${made.body.id}/`);
    expect(read.body).to.deep.equal(made.body);
    const changed = await patch(`${LINKS}${made.body.id}/`, { button_class: "danger", group_name: "Docs", weight: 5 });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body).to.deep.include({ button_class: "danger", group_name: "Docs", weight: 5 });
    expect((await get(`${LINKS}${made.body.id}/?brief=1`)).body).to.have.all.keys("id", "url", "display", "content_type", "name");
    expect((await del(`${LINKS}${made.body.id}/`)).status).to.equal(204);
    expect(await rows("extras_customlink", { id: made.body.id })).to.equal(0);
  });

  it("refuses what Nautobot refuses, and stores nothing", async () => {
    const base = { name: `${tag} Bad`, content_type: "dcim.site", text: "x", target_url: "y", new_window: true };
    await post(LINKS, { ...base, name: `${tag} Taken` });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ ...base, new_window: undefined }, { new_window: ["This field is required."] }],
      [{ ...base, text: undefined, target_url: undefined }, { target_url: ["This field is required."], text: ["This field is required."] }],
      [{ ...base, button_class: "purple" }, { button_class: ['"purple" is not a valid choice.'] }],
      [{ ...base, weight: -1 }, { weight: ["Ensure this value is greater than or equal to 0."] }],
      [{ ...base, group_name: "g".repeat(51) }, { group_name: ["Ensure this field has no more than 50 characters."] }],
      [{ ...base, content_type: "dcim.nothing" }, { content_type: ["Invalid content type: dcim.nothing"] }],
      [{ ...base, name: `${tag} Taken` }, { name: ["custom link with this name already exists."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post(LINKS, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("extras_customlink", { name: `${tag} Bad` })).to.equal(0);
  });

  it("filters as CustomLinkFilterSet", async () => {
    const a = (await post(LINKS, { name: `${tag} A`, content_type: "dcim.site", text: "a", target_url: "https://a/{{ obj.id }}", new_window: true, group_name: `${tag}-g`, button_class: "primary", weight: 10 })).body;
    const b = (await post(LINKS, { name: `${tag} B`, content_type: "dcim.device", text: "b", target_url: "https://b/", new_window: false, weight: 20 })).body;
    const names = async (query: string) => (await get(`${LINKS}?q=${tag}&${query}`)).body.results.map((l: { name: string }) => l.name);
    expect(await names("content_type=dcim.site")).to.include(a.name).and.not.include(b.name);
    expect(await names("button_class=primary")).to.deep.equal([a.name]);
    expect(await names("new_window=false")).to.deep.equal([b.name]);
    expect(await names("weight=20")).to.deep.equal([b.name]);
    expect(await names(`group_name=${tag}-g`)).to.deep.equal([a.name]);
    expect(await names("target_url__ic=https://b")).to.deep.equal([b.name]);
    // Ordered by group, weight and name: the ungrouped link first.
    expect(await names("")).to.deep.equal([b.name, `${tag} Taken`, a.name]);
    expect((await get(`${LINKS}?button_class=purple`)).status).to.equal(400);
  });

  it("renders a link's text and URL for an object, as the custom_links tag does", async () => {
    const link = (await post(LINKS, {
      name: `${tag} Render`, content_type: "dcim.site", text: "{{ obj.name | upper }}", new_window: true, group_name: "Ops", button_class: "info",
      target_url: "https://nms.example/{{ obj.slug }}?status={{ obj.status.value }}",
    })).body;
    const res = await get(`${LINKS}${link.id}/render/?object_id=${site.id}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      name: link.name, text: site.name.toUpperCase(), url: `https://nms.example/${site.slug}?status=active`,
      group_name: "Ops", button_class: "info", new_window: true, visible: true, error: null,
    });
    // A link whose text renders empty is not shown.
    const hidden = (await post(LINKS, { name: `${tag} Hidden`, content_type: "dcim.site", text: "{% if obj.status.value == 'planned' %}Plan{% endif %}", target_url: "u", new_window: false })).body;
    expect((await get(`${LINKS}${hidden.id}/render/?object_id=${site.id}`)).body).to.deep.include({ visible: false, text: "", url: "" });
    expect((await get(`${LINKS}${hidden.id}/render/?object_id=${other.id}`)).body).to.deep.include({ visible: true, text: "Plan", url: "u" });
    // A template error is reported, as Nautobot shows the link disabled with it.
    const broken = (await post(LINKS, { name: `${tag} Broken`, content_type: "dcim.site", text: "ok", target_url: "{{ obj.name ", new_window: false })).body;
    const failed = (await get(`${LINKS}${broken.id}/render/?object_id=${site.id}`)).body;
    expect(failed).to.deep.include({ visible: true, text: "ok", url: "" });
    expect(failed.error).to.be.a("string").and.not.equal("");
  });

  it("refuses a render without a valid object of the link's type", async () => {
    const link = (await post(LINKS, { name: `${tag} Obj`, content_type: "dcim.site", text: "x", target_url: "y", new_window: false })).body;
    const device = (await get("/api/dcim/devices/?limit=1")).body.results[0];
    const cases: Array<[string, unknown]> = [
      ["", { object_id: ["This field is required."] }],
      ["?object_id=nope", { object_id: ["Must be a valid UUID."] }],
      [`?object_id=${MISSING_ID}`, { object_id: [`Related object not found using the provided ID: ${MISSING_ID}`] }],
      ...(device ? [[`?object_id=${device.id}`, { object_id: [`Related object not found using the provided ID: ${device.id}`] }] as [string, unknown]] : []),
    ];
    for (const [query, errors] of cases) {
      const res = await get(`${LINKS}${link.id}/render/${query}`);
      expect([res.status, res.body], query).to.deep.equal([400, errors]);
    }
    expect((await get(`${LINKS}${MISSING_ID}/render/?object_id=${site.id}`)).status).to.equal(404);
  });

  it("needs view permission on links, and renders only objects the requester may view", async () => {
    const server = await startTestServer();
    const link = (await post(LINKS, { name: `${tag} Perm`, content_type: "dcim.site", text: "{{ obj.name }}", target_url: "y", new_window: false })).body;
    const none = (await server.user(uniq(`${tag}-u`), { grants: [] })).key;
    expect([(await get(LINKS, { token: none })).status, (await get(LINKS, { token: none })).body]).to.deep.equal([403, DENIED]);
    expect((await get(`${LINKS}${link.id}/render/?object_id=${site.id}`, { token: none })).status).to.equal(403);
    const some = (await server.user(uniq(`${tag}-u`), { grants: [
      { object_types: ["extras.customlink"], actions: ["view"] },
      { object_types: ["dcim.site"], actions: ["view"], constraints: { slug: site.slug } },
    ] })).key;
    expect((await get(`${LINKS}${link.id}/render/?object_id=${site.id}`, { token: some })).body.text).to.equal(site.name);
    expect((await get(`${LINKS}${link.id}/render/?object_id=${other.id}`, { token: some })).status).to.equal(400);
    expect((await post(LINKS, { name: `${tag} Nope`, content_type: "dcim.site", text: "x", target_url: "y", new_window: false }, { token: some })).status).to.equal(403);
  });
});
