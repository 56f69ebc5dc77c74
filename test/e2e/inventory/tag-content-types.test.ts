// Tags limited by content type, as Nautobot 1.5 has them: API 1.3 shows and requires a tag's
// `content_types`, API 1.2 neither shows nor takes them and gives a new tag every taggable
// model; a tag applies only to the models it names, and a model cannot leave a tag's list
// while objects of it carry the tag. And /api/extras/content-types/: one row per model of the
// API, with integer ids the generator gave, the same in every database.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { apis } from "../../../generated/server.js";
import type { ContentTypesField } from "../../../runtime/descriptor.js";
import { migrate } from "../../../runtime/db/migrate.js";
import { migrationSets, runtimeMigrations } from "../../../runtime/db/runtime-migrations.js";
import { freshEmbeddedDatabase } from "../../support/fresh-db.js";
import { call, get, patch, post, put } from "../../support/http.js";
import { sentStatements } from "../../support/statements.js";
import { rows, uniq } from "./support.js";

const TAGS = "/api/extras/tags/";
const CONTENT_TYPES = "/api/extras/content-types/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };

const inventory = apis.find((a) => a.name === "inventory")!;
/** Every model the tags feature reaches, as content-type labels: what a 1.2 tag applies to. */
const TAGGABLE = inventory.models.filter((m) => m.features.tags).map((m) => m.key).sort();

async function tag(contentTypes: string[], name = uniq("ctag")): Promise<{ id: string; name: string; slug: string; content_types: string[] }> {
  const res = await post(TAGS, { name, content_types: contentTypes }, V13);
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

async function tagsOf(path: string): Promise<string[]> {
  return (await get(path)).body.tags.map((t: { slug: string }) => t.slug).sort();
}

describe("inventory e2e: tags by content type", () => {
  it("API 1.3: a create without content_types is refused, in DRF's words, and makes nothing", async () => {
    const name = uniq("ctag-missing");
    const res = await post(TAGS, { name }, V13);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ content_types: ["This field is required."] });
    expect(await rows("extras_tag", { name })).to.equal(0);
    const put13 = await put(`${TAGS}${(await tag(["dcim.site"])).id}/`, { name: uniq("ctag") }, V13);
    expect(put13.body).to.deep.equal({ content_types: ["This field is required."] });
  });

  it("API 1.3: content types that are no taggable model, or no label, are refused as Nautobot's ContentTypeField refuses them", async () => {
    const cases: Array<[unknown, string]> = [
      [["dcim.nosuch"], "Invalid content type: dcim.nosuch"],
      // A model of the API that has no tags.
      [["dcim.region"], "Invalid content type: dcim.region"],
      [["dcim.site", "DCIM.Site"], "Invalid content type: DCIM.Site"],
      [["dcim"], "Invalid value. Specify a content type as '<app_label>.<model_name>'."],
      [["a.b.c"], "Invalid value. Specify a content type as '<app_label>.<model_name>'."],
      [[7], "Invalid value. Specify a content type as '<app_label>.<model_name>'."],
      ["dcim.site", 'Expected a list of items but got type "str".'],
      [null, "This field may not be null."],
    ];
    for (const [contentTypes, message] of cases) {
      const name = uniq("ctag-bad");
      const res = await post(TAGS, { name, content_types: contentTypes }, V13);
      expect(res.status, JSON.stringify(contentTypes)).to.equal(400);
      expect(res.body, JSON.stringify(contentTypes)).to.deep.equal({ content_types: [message] });
      expect(await rows("extras_tag", { name })).to.equal(0);
    }
  });

  it("API 1.2: a new tag gets every taggable content type; the field is neither shown nor taken", async () => {
    const made = await post(TAGS, { name: uniq("ctag-12") });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.not.have.property("content_types");
    expect((await get(`${TAGS}${made.body.id}/`, V13)).body.content_types).to.deep.equal(TAGGABLE);
    // Sent through 1.2 it is ignored, as Nautobot's 1.2 serializer ignores it.
    const ignored = await post(TAGS, { name: uniq("ctag-12"), content_types: ["dcim.site"] });
    expect(ignored.status, ignored.text).to.equal(201);
    expect((await get(`${TAGS}${ignored.body.id}/`, V13)).body.content_types).to.deep.equal(TAGGABLE);
  });

  it("1.2 and 1.3 show the same tag but for content_types: replies, OPTIONS and OpenAPI documents", async () => {
    const t = await tag(["dcim.site", "ipam.prefix"]);
    const [old, now] = [await get(`${TAGS}${t.id}/`), await get(`${TAGS}${t.id}/`, V13)];
    expect(Object.keys(now.body).filter((k) => !(k in old.body))).to.deep.equal(["content_types"]);
    expect(Object.keys(old.body).filter((k) => !(k in now.body))).to.deep.equal([]);
    expect(now.body.content_types).to.deep.equal(["dcim.site", "ipam.prefix"]);
    const listed = (await get(`${TAGS}?id=${t.id}`)).body.results[0];
    expect(listed).to.not.have.property("content_types");

    const options12 = await call("OPTIONS", TAGS);
    const options13 = await call("OPTIONS", TAGS, V13);
    expect(options12.body.actions.POST).to.not.have.property("content_types");
    expect(options13.body.actions.POST.content_types).to.deep.equal({ type: "field", required: true, read_only: false, label: "Content types" });

    const doc12 = (await get("/api/swagger.json?api_version=1.2")).body.components.schemas;
    const doc13 = (await get("/api/swagger.json?api_version=1.3")).body.components.schemas;
    expect(doc12.Tag.properties).to.not.have.property("content_types");
    expect(doc12.PatchedWritableTagRequest.properties).to.not.have.property("content_types");
    expect(doc12.WritableTagRequest.allOf[0].required).to.not.include("content_types");
    // A schema the document writes once is a reference (generator/emit/openapi/share-schemas.ts).
    const resolved = (schema: { $ref?: string }) => (schema.$ref ? doc13[schema.$ref.split("/").at(-1)!] : schema);
    expect(resolved(doc13.Tag.properties.content_types).items.enum).to.deep.equal(TAGGABLE);
    expect(doc13.WritableTagRequest.allOf[0].required).to.include("content_types");

    // A 1.2 write leaves the list alone.
    const renamed = await patch(`${TAGS}${t.id}/`, { description: "through 1.2" });
    expect(renamed.status, renamed.text).to.equal(200);
    expect((await get(`${TAGS}${t.id}/`, V13)).body.content_types).to.deep.equal(["dcim.site", "ipam.prefix"]);
  });

  it("a tag whose content types do not name the model is not found for it: 400 naming tags, in both versions, nothing changed", async () => {
    const siteOnly = await tag(["dcim.site"]);
    const anywhere = await tag(TAGGABLE);
    for (const opts of [{}, V13]) {
      const name = uniq("ctag-tenant");
      const res = await post("/api/tenancy/tenants/", { name, tags: [siteOnly.id] }, opts);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ tags: [[`Related object not found using the provided ID: ${siteOnly.id}`]] });
      expect(await rows("tenancy_tenant", { name })).to.equal(0);
    }
    const tenant = await post("/api/tenancy/tenants/", { name: uniq("ctag-tenant"), tags: [anywhere.id] });
    expect(tenant.status, tenant.text).to.equal(201);
    const path = `/api/tenancy/tenants/${tenant.body.id}/`;
    // One entry per item, `{}` for the good ones, as DRF's list serializer reports them.
    const mixed = await patch(path, { description: "changed", tags: [{ slug: anywhere.slug }, { slug: siteOnly.slug }] }, V13);
    expect(mixed.status).to.equal(400);
    expect(mixed.body).to.deep.equal({ tags: [{}, [`Related object not found using the provided attributes: {'slug': '${siteOnly.slug}'}`]] });
    expect((await get(path)).body).to.include({ description: "" });
    expect(await tagsOf(path)).to.deep.equal([anywhere.slug]);
    // Where the tag applies, it is taken.
    const site = await post("/api/dcim/sites/", { name: uniq("ctag-site"), status: "active", tags: [siteOnly.id] });
    expect(site.status, site.text).to.equal(201);
    expect(site.body.tags.map((x: { id: string }) => x.id)).to.deep.equal([siteOnly.id]);
  });

  it("a content type cannot leave a tag's list while objects of it carry the tag: 400 with Nautobot's text, nothing changed", async () => {
    const t = await tag(["dcim.site", "ipam.prefix", "tenancy.tenant"]);
    await post("/api/dcim/sites/", { name: uniq("ctag-site"), status: "active", tags: [t.id] });
    await post("/api/ipam/prefixes/", { prefix: "10.213.7.0/24", status: "active", tags: [t.id] });
    // Both versions count the objects carrying the tag.
    expect((await get(`${TAGS}${t.id}/`)).body.tagged_items).to.equal(2);
    expect((await get(`${TAGS}${t.id}/`, V13)).body.tagged_items).to.equal(2);
    const res = await patch(`${TAGS}${t.id}/`, { description: "changed", content_types: ["tenancy.tenant"] }, V13);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      content_types: ["Unable to remove dcim.site. Dependent objects were found.", "Unable to remove ipam.prefix. Dependent objects were found."],
    });
    expect((await get(`${TAGS}${t.id}/`, V13)).body).to.deep.include({ description: "", content_types: ["dcim.site", "ipam.prefix", "tenancy.tenant"] });
    // A type no object of which carries the tag may go.
    const kept = await put(`${TAGS}${t.id}/`, { name: t.name, content_types: ["dcim.site", "ipam.prefix"] }, V13);
    expect(kept.status, kept.text).to.equal(200);
    expect(kept.body.content_types).to.deep.equal(["dcim.site", "ipam.prefix"]);
  });

  it("applying a tag and taking its model out of the tag's list, at the same time, never both succeed", async () => {
    for (let round = 0; round < 8; round++) {
      const t = await tag(["dcim.site", "ipam.prefix"]);
      const [site, narrowed] = await Promise.all([
        post("/api/dcim/sites/", { name: uniq("ctag-race"), status: "active", tags: [t.id] }),
        patch(`${TAGS}${t.id}/`, { content_types: ["ipam.prefix"] }, V13),
      ]);
      // The site got the tag and the list kept dcim.site, or the list lost it and the site was refused.
      expect(`${site.status}/${narrowed.status}`, `round ${round}: ${site.text} / ${narrowed.text}`).to.be.oneOf(["201/400", "400/200"]);
      const types = (await get(`${TAGS}${t.id}/`, V13)).body.content_types;
      expect(types.includes("dcim.site")).to.equal(site.status === 201);
    }
  });

  it("a write's tags are held by the statement that finds them: by id, no lock of their own; by name, one", async () => {
    const [a, b] = [await tag(["dcim.site"]), await tag(["dcim.site"])];
    const locks = (sql: string[]) => sql.filter((q) => /for key share/i.test(q) && q.includes('"extras_tag"'));
    const byId = await sentStatements(() => post("/api/dcim/sites/", { name: uniq("held"), status: "active", tags: [b.id, a.id] }));
    expect(byId.reply.status, byId.reply.text).to.equal(201);
    const held = locks(byId.sql);
    // One statement checks every reference (a single write presumes them found, and this
    // statement confirms it) and holds the tags, in id order; none locks them again.
    const lookups = /^(WITH f AS \()?SELECT 0 AS g/;
    expect(held).to.have.length(1);
    expect(held[0]).to.match(/ORDER BY t0\.id FOR KEY SHARE/);
    expect(held[0]).to.match(lookups).and.include('"extras_status"');
    const byName = await sentStatements(() => post("/api/dcim/sites/", { name: uniq("held"), status: "active", tags: [{ name: a.name }] }));
    expect(byName.reply.status, byName.reply.text).to.equal(201);
    expect(locks(byName.sql)).to.have.length(1);
    expect(locks(byName.sql)[0]).to.not.match(lookups);
  });

  it("filters tags by content_types: repeated values all named, __n none of them, unknown ones refused; q finds model names", async () => {
    const site = await tag(["dcim.site"]);
    const both = await tag(["dcim.site", "ipam.vlan"]);
    const names = async (query: string) => (await get(`${TAGS}?${query}&limit=0`)).body.results.map((x: { name: string }) => x.name);
    expect(await names("content_types=dcim.site")).to.include.members([site.name, both.name]);
    const vlanAndSite = await names("content_types=dcim.site&content_types=ipam.vlan");
    expect(vlanAndSite).to.include(both.name).and.not.include(site.name);
    const notVlan = await names("content_types__n=ipam.vlan");
    expect(notVlan).to.include(site.name).and.not.include(both.name);
    const bad = await get(`${TAGS}?content_types=dcim.region`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ content_types: ["Select a valid choice. dcim.region is not one of the available choices."] });
    expect(await names(`q=vla&id=${both.id}&id=${site.id}`)).to.deep.equal([both.name]);
  });
});

describe("inventory e2e: content types", () => {
  /** Content types the API lists: one per model, views and the list itself aside. */
  const expected = inventory.models.filter((m) => !m.view && m.route !== "content-types").map((m) => m.key).sort();

  it("lists one content type per model of the API, as Nautobot's ContentTypeSerializer shows them, ordered by app and model", async () => {
    const all = await get(`${CONTENT_TYPES}?limit=0`);
    expect(all.status).to.equal(200);
    expect(all.body.count).to.equal(expected.length);
    const labels = all.body.results.map((c: { app_label: string; model: string }) => `${c.app_label}.${c.model}`);
    expect(labels).to.deep.equal(expected);
    const device = all.body.results.find((c: { model: string }) => c.model === "devicetype");
    expect(Object.keys(device)).to.deep.equal(["id", "display", "url", "app_label", "model"]);
    expect(device).to.deep.include({ display: "DCIM | device type", app_label: "dcim", url: `${new URL(all.body.results[0].url).origin}${CONTENT_TYPES}${device.id}/` });
    expect(device.id).to.be.a("number");
    const display = (label: string) => all.body.results.find((c: { app_label: string; model: string }) => `${c.app_label}.${c.model}` === label).display;
    expect([display("ipam.ipaddress"), display("virtualization.vminterface"), display("extras.tag"), display("users.token")])
      .to.deep.equal(["IPAM | IP address", "Virtualization | VM interface", "Extras | tag", "Users | token"]);
    const page = await get(`${CONTENT_TYPES}?limit=2&offset=2`);
    expect(page.body.results.map((c: { id: number }) => c.id)).to.deep.equal(all.body.results.slice(2, 4).map((c: { id: number }) => c.id));
    expect(page.body.next).to.match(/limit=2&offset=4$/);

    const one = await get(`${CONTENT_TYPES}${device.id}/`);
    expect(one.body).to.deep.equal(device);
    expect((await get(`${CONTENT_TYPES}${device.id}/?brief=1`)).body).to.deep.equal({ id: device.id, url: device.url, display: device.display, app_label: "dcim", model: "devicetype" });
    for (const missing of ["999999", "abc", "1.5", "00000000-0000-4000-8000-000000000000"]) {
      expect((await get(`${CONTENT_TYPES}${missing}/`)).status, missing).to.equal(404);
    }
  });

  it("is read only, and only for authenticated users", async () => {
    const write = await post(CONTENT_TYPES, { app_label: "dcim", model: "thing" });
    expect(write.status).to.equal(405);
    expect(write.body).to.deep.equal({ detail: 'Method "POST" not allowed.' });
    const first = (await get(`${CONTENT_TYPES}?limit=1`)).body.results[0];
    expect((await patch(`${CONTENT_TYPES}${first.id}/`, { model: "x" })).status).to.equal(405);
    expect((await get(CONTENT_TYPES, { token: null })).status).to.equal(403);
    const options = await call("OPTIONS", CONTENT_TYPES);
    expect(options.body).to.not.have.property("actions");
  });

  it("filters by id (with number lookups), app_label, model and q", async () => {
    const all = (await get(`${CONTENT_TYPES}?limit=0`)).body.results as Array<{ id: number; app_label: string; model: string }>;
    const labels = async (query: string) => {
      const res = await get(`${CONTENT_TYPES}?${query}&limit=0`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      return res.body.results.map((c: { app_label: string; model: string }) => `${c.app_label}.${c.model}`);
    };
    const prefix = all.find((c) => c.model === "prefix")!;
    expect(await labels(`id=${prefix.id}`)).to.deep.equal(["ipam.prefix"]);
    expect(await labels(`id__gte=${prefix.id}&app_label=ipam`)).to.deep.equal(all.filter((c) => c.app_label === "ipam" && c.id >= prefix.id).map((c) => `ipam.${c.model}`));
    expect(await labels("app_label=ipam&model=vlan&model=vrf")).to.deep.equal(["ipam.vlan", "ipam.vrf"]);
    expect(await labels("model__ic=TEMPLATE&app_label__n=circuits")).to.deep.equal(all.filter((c) => c.model.endsWith("template")).map((c) => `${c.app_label}.${c.model}`));
    expect(await labels("q=virtualm")).to.deep.equal(["virtualization.virtualmachine"]);
    expect(await labels("q=tenancy")).to.deep.equal(["tenancy.tenant", "tenancy.tenantgroup"]);
    const bad = await get(`${CONTENT_TYPES}?id=abc`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ id: ["Enter a whole number."] });
    expect((await get(`${CONTENT_TYPES}?colour=red`)).body).to.deep.equal({ colour: ["Unknown filter field"] });
  });

  it("shows in the extras root and the OpenAPI documents like every endpoint", async () => {
    expect((await get("/api/extras/")).body["content-types"]).to.match(/\/api\/extras\/content-types\/$/);
    for (const version of ["1.2", "1.3"]) {
      const doc = (await get(`/api/swagger.json?api_version=${version}`)).body;
      expect(doc.paths[CONTENT_TYPES].get.operationId).to.equal("extras_content-types_list");
      expect(doc.paths[CONTENT_TYPES]).to.not.have.property("post");
      // Written out where older clients read the document, as drf-spectacular writes parameters.
      const inline = (await get(`/api/docs/?format=openapi&api_version=${version}`)).body;
      expect(inline.paths[`${CONTENT_TYPES}{id}/`].parameters[0].schema).to.deep.equal({ type: "integer" });
      const shared = doc.paths[`${CONTENT_TYPES}{id}/`].parameters[0].$ref.split("/").at(-1);
      expect(doc.components.parameters[shared].schema).to.deep.equal({ type: "integer" });
      expect(doc.components.schemas.ContentType.properties.id).to.deep.include({ type: "integer" });
    }
  });

  it("ids are the generator's: the snapshot's, and the same in another freshly migrated database", async () => {
    const listed = (await get(`${CONTENT_TYPES}?limit=0`)).body.results as Array<{ id: number; app_label: string; model: string }>;
    const byLabel = Object.fromEntries(listed.map((c) => [`${c.app_label}.${c.model}`, c.id]));
    // The API's own stream's rows, and each app's (the BGP app's, in its own stream's snapshot).
    const rowsOf = (path: string) => JSON.parse(readFileSync(new URL(`../../../generated/inventory/${path}`, import.meta.url), "utf8"))
      .tables.extras_contenttype.rows.byKey as Record<string, { id: number }>;
    const given = { ...rowsOf("schema.json"), ...rowsOf("apps/bgp/schema.json") };
    expect(byLabel).to.deep.equal(Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v.id])));

    // Another database, migrated to just before the tags' content types arrive, holding a tag
    // then: once migrated, its content types are the same ids, and the old tag has every taggable type.
    const other = await freshEmbeddedDatabase();
    try {
      const arrives = inventory.migrations.findIndex((m) => m.sql.includes('CREATE TABLE "extras_tag_content_types"'));
      expect(arrives).to.be.greaterThan(0);
      await migrate(other.knex, [runtimeMigrations, { api: "inventory", migrations: inventory.migrations.slice(0, arrives) }]);
      const [{ id: oldTag }] = await other.knex("extras_tag").insert({ name: "Old", slug: "old" }).returning("id");
      // Every stream of the inventory: its own, then its apps'.
      await migrate(other.knex, migrationSets([inventory]));
      const there = await other.knex("extras_contenttype").select("id", "app_label", "model");
      expect(Object.fromEntries(there.map((c: { id: number; app_label: string; model: string }) => [`${c.app_label}.${c.model}`, c.id]))).to.deep.equal(byLabel);
      const scope = inventory.models.find((m) => m.route === "tags" && m.app === "extras")!.fields.find((f): f is ContentTypesField => f.kind === "contentTypes")!;
      const oldTypes = await other.knex(`${scope.through.table} as j`).join("extras_contenttype as c", "c.id", `j.${scope.through.target}`)
        .where(`j.${scope.through.source}`, oldTag).select(other.knex.raw("c.app_label || '.' || c.model AS label"));
      // Every type taggable when that migration ran: models added later (jobs) are not in it.
      const thenTagged = TAGGABLE.filter((label) => {
        const table = inventory.models.find((m) => m.key === label)!.table;
        return inventory.migrations.slice(0, arrives + 1).some((m) => m.sql.includes(`CREATE TABLE "${table}"`));
      });
      expect(oldTypes.map((r: { label: string }) => r.label).sort()).to.deep.equal(thenTagged);
    } finally {
      await other.close();
    }
  });
});
