// Categories and tags over HTTP: the term archive envelope and its filters, writes by
// editors only, duplicate names, permanent deletes.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { get, post, put, del } from "../../support/http.js";
import { NS, contributorUser, makeEvent } from "./support.js";

describe("calendar: categories and tags", () => {
  it("lists terms in the term envelope, hiding empty ones by default", async () => {
    const res = await get(`${NS}/categories`, { token: null });
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(["rest_url", "total", "total_pages", "categories"]);
    expect(res.body.rest_url).to.match(/\/categories\/$/);
    const music = res.body.categories.find((c: any) => c.slug === "music");
    expect(music).to.include({ name: "Music", taxonomy: "tribe_events_cat", parent: 0 });
    expect(music.count).to.be.at.least(2);
    expect(music.meta).to.deep.equal([]);
    expect(music.urls.self).to.match(/\/categories\/1$/);
    const jazz = res.body.categories.find((c: any) => c.slug === "jazz");
    expect(jazz.urls.up).to.match(/\/categories\/1$/);
    await post(`${NS}/tags`, { name: "Unused tag" });
    expect((await get(`${NS}/tags`, { token: null })).body.tags.map((t: any) => t.name)).to.not.include("Unused tag");
    const all = await get(`${NS}/tags?hide_empty=false`, { token: null });
    expect(all.body.tags.map((t: any) => t.name)).to.include("Unused tag");
    expect(all.body.tags[0]).to.not.have.property("parent");
    expect(all.headers.get("x-tec-total")).to.equal(String(all.body.total));
  });

  it("pages terms with next/previous links and 200 past the end", async () => {
    const p1 = await get(`${NS}/categories?per_page=1&hide_empty=0`, { token: null });
    expect(p1.body.categories).to.have.length(1);
    expect(p1.body.next_rest_url).to.match(/\/categories\/\?page=2$/);
    const p2 = await get(`${NS}/categories?per_page=1&page=2&hide_empty=0`, { token: null });
    expect(p2.body.previous_rest_url).to.match(/\/categories\/$/);
    const past = await get(`${NS}/categories?page=99`, { token: null });
    expect(past.status).to.equal(200);
    expect(past.body.categories).to.deep.equal([]);
  });

  it("filters by search, include, exclude, order/orderby, parent, post/event and slug", async () => {
    const names = async (q: string) => (await get(`${NS}/categories?hide_empty=false&per_page=50&${q}`, { token: null })).body.categories.map((c: any) => c.name);
    expect(await names("search=jaz")).to.deep.equal(["Jazz"]);
    expect(await names("include=1,2")).to.have.members(["Music", "Jazz"]);
    expect(await names("exclude=1")).to.not.include("Music");
    expect(await names("orderby=id&order=desc&include=1,2,3")).to.deep.equal(["Community", "Jazz", "Music"]);
    expect(await names("orderby=name&order=asc&include=1,2,3")).to.deep.equal(["Community", "Jazz", "Music"]);
    expect(await names("parent=1")).to.deep.equal(["Jazz"]);
    expect(await names("post=1")).to.have.members(["Music", "Jazz"]);
    expect(await names("event=2")).to.deep.equal(["Community"]);
    expect(await names("slug=music")).to.deep.equal(["Music"]);
    for (const q of ["order=", "orderby=", "parent=2389", "post=999999", "event=foo", "slug=", "search=", "include=nope", "hide_empty=maybe"]) {
      const res = await get(`${NS}/categories?${q}`, { token: null });
      expect(res.status, q).to.equal(400);
      expect(res.body.code).to.equal("rest_invalid_param");
    }
    expect((await get(`${NS}/tags?parent=1`, { token: null })).status).to.equal(200, "tags have no parent filter; unknown params are ignored");
  });

  it("creates, reads, updates and deletes terms (editors only)", async () => {
    const c = await post(`${NS}/categories`, { name: "Theatre", description: "Plays", parent: 1 });
    expect(c.status).to.equal(201);
    expect(c.headers.get("location")).to.match(new RegExp(`/categories/${c.body.id}$`));
    expect(c.body).to.include({ name: "Theatre", slug: "theatre", parent: 1, count: 0, taxonomy: "tribe_events_cat" });
    expect(c.body.urls.up).to.match(/\/categories\/1$/);
    const dup = await post(`${NS}/categories`, { name: "theatre", parent: 1 });
    expect(dup.status).to.equal(400);
    expect(dup.body.code).to.equal("term_exists");
    expect(dup.body.data.term_id).to.equal(c.body.id);
    expect((await post(`${NS}/categories`, { description: "no name" })).body.code).to.equal("rest_missing_callback_param");
    expect((await post(`${NS}/categories`, { name: "Orphan", parent: 2389 })).status).to.equal(400);
    const up = await put(`${NS}/categories/${c.body.id}`, { description: "Stage plays" });
    expect(up.body).to.include({ name: "Theatre", description: "Stage plays" });
    expect((await get(`${NS}/categories/${c.body.id}`, { token: null })).body.description).to.equal("Stage plays");
    const missing = await get(`${NS}/categories/2389`, { token: null });
    expect(missing.status).to.equal(404);
    expect(missing.body.code).to.equal("rest_term_invalid");
    const e = await makeEvent({ categories: [c.body.id] });
    const gone = await del(`${NS}/categories/${c.body.id}`);
    expect(gone.status).to.equal(200);
    expect(gone.body).to.include({ id: c.body.id, name: "Theatre", count: 1 });
    const server = await startTestServer();
    expect(await server.db("events_category").where("id", c.body.id).first()).to.equal(undefined);
    expect((await get(`${NS}/events/${e.id}`, { token: null })).body.categories).to.deep.equal([]);
    const t = await post(`${NS}/tags`, { name: "Outdoor" });
    expect(t.body).to.include({ taxonomy: "post_tag", slug: "outdoor" });
    expect((await del(`${NS}/tags/${t.body.id}`)).status).to.equal(200);
    expect((await del(`${NS}/tags/${t.body.id}`)).status).to.equal(404);
  });

  it("keeps each term's count through event writes, deletes and rows written to the link tables directly", async () => {
    const server = await startTestServer();
    const k = (await post(`${NS}/categories`, { name: "Counted" })).body;
    const t = (await post(`${NS}/tags`, { name: "Counted tag" })).body;
    const count = async (list: string, id: number) => (await get(`${NS}/${list}/${id}`, { token: null })).body.count;
    expect([await count("categories", k.id), await count("tags", t.id)]).to.deep.equal([0, 0]);
    const one = await makeEvent({ categories: [k.id], tags: [t.id] });
    const two = await makeEvent({ categories: [k.id], tags: [t.id] });
    expect([await count("categories", k.id), await count("tags", t.id)]).to.deep.equal([2, 2]);
    // Shown the same where an event embeds the term.
    const embedded = (await get(`${NS}/events/${one.id}`, { token: null })).body;
    expect([embedded.categories[0].count, embedded.tags[0].count]).to.deep.equal([2, 2]);
    expect((await put(`${NS}/events/${one.id}`, { categories: [], tags: [t.id] })).status).to.equal(200);
    expect([await count("categories", k.id), await count("tags", t.id)]).to.deep.equal([1, 2]);
    expect((await del(`${NS}/events/${two.id}?force=true`)).status).to.equal(200);
    expect([await count("categories", k.id), await count("tags", t.id)]).to.deep.equal([0, 1]);
    const three = await makeEvent();
    await server.db("events_event_categories").insert([{ source_id: one.id, category_id: k.id }, { source_id: three.id, category_id: k.id }]);
    expect(await count("categories", k.id)).to.equal(2);
    await server.db("events_event_categories").where("category_id", k.id).update({ category_id: 1 });
    expect(await count("categories", k.id)).to.equal(0);
    // Every term's kept count is its number of links.
    for (const [terms, links, column] of [["events_category", "events_event_categories", "category_id"], ["events_tag", "events_event_tags", "tag_id"]]) {
      const wrong = await server.db.raw(`SELECT id FROM ${terms} t WHERE event_count <> (SELECT count(*) FROM ${links} c WHERE c.${column} = t.id)`);
      expect(wrong.rows, terms).to.deep.equal([]);
    }
  });

  it("refuses term writes to anonymous (401) and non-editors (403)", async () => {
    expect((await post(`${NS}/tags`, { name: "Nope" }, { token: null })).status).to.equal(401);
    const c = await contributorUser();
    const res = await post(`${NS}/tags`, { name: "Nope" }, { token: c.key });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal("rest_forbidden");
    expect((await del(`${NS}/tags/1`, undefined, { token: c.key })).status).to.equal(403);
    const server = await startTestServer();
    expect(await server.db("events_tag").where("name", "Nope").first()).to.equal(undefined);
  });
});
