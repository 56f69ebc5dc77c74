// Events over HTTP: the archive envelope, paging and headers, every filter of the events
// parameter table, and create/read/update/delete with the plugin's status codes.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { get, post, put, patch, del, call } from "../../support/http.js";
import { NS, form, makeEvent, contributorUser } from "./support.js";

describe("calendar: event archive", () => {
  it("lists upcoming published events in the envelope, ordered by start, with total headers", async () => {
    const res = await get(`${NS}/events`, { token: null });
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(["events", "rest_url", "total", "total_pages"]);
    const starts = res.body.events.map((e: any) => e.start_date);
    expect(starts).to.deep.equal([...starts].sort());
    expect(res.body.events.every((e: any) => e.status === "publish")).to.equal(true);
    expect(res.body.events.map((e: any) => e.title)).to.not.include("Last Month's Concert");
    for (const h of ["x-tec-total", "x-wp-total"]) expect(res.headers.get(h)).to.equal(String(res.body.total));
    for (const h of ["x-tec-totalpages", "x-wp-totalpages"]) expect(res.headers.get(h)).to.equal(String(res.body.total_pages));
    expect(res.body.rest_url).to.match(/\/events\/\?start_date=.*&end_date=/);
  });

  it("renders an event with the plugin's keys and shapes", async () => {
    const res = await get(`${NS}/events?search=Jazz%20Night`, { token: null });
    const e = res.body.events[0];
    expect(e).to.include({ title: "Jazz Night", slug: "jazz-night", timezone: "Europe/Berlin", cost: "€15", featured: true, image: false });
    expect(e.start_date).to.match(/^\d{4}-\d{2}-\d{2} 20:00:00$/);
    expect(e.utc_start_date).to.match(/ 19:00:00$/);
    expect(e.start_date_details).to.include({ hour: "20", minutes: "00", seconds: "00" });
    expect(e.cost_details).to.deep.equal({ currency_symbol: "€", currency_code: "", currency_position: "prefix", values: ["15"] });
    expect(e.venue).to.include({ venue: "Blue Room", city: "Hamburg" });
    expect(e.organizer).to.be.an("array").with.length(1);
    expect(e.categories.map((c: any) => c.slug)).to.deep.equal(["music", "jazz"]);
    expect(e.categories[0]).to.include({ taxonomy: "tribe_events_cat", filter: "raw" });
    expect(e.tags[0]).to.include({ slug: "free-entry", taxonomy: "post_tag" });
    expect(e.website).to.equal(e.url);
    expect(typeof e.author).to.equal("string");
  });

  it("pages with page/per_page, clamps per_page to 50, links next and previous, 404s past the end", async () => {
    for (let i = 0; i < 3; i++) await makeEvent({ title: `Paging probe ${i}` });
    const first = await get(`${NS}/events?search=Paging%20probe&per_page=2`, { token: null });
    expect(first.body.events).to.have.length(2);
    expect(first.body.total).to.equal(3);
    expect(first.body.total_pages).to.equal(2);
    expect(first.body.next_rest_url).to.include("page=2");
    expect(first.body).to.not.have.property("previous_rest_url");
    expect(first.headers.get("link")).to.include(`<${first.body.next_rest_url}>; rel="next"`).and.not.include('rel="prev"');
    const second = await get(first.body.next_rest_url, { token: null });
    expect(second.body.events).to.have.length(1);
    expect(second.body.previous_rest_url).to.not.match(/[?&]page=/);
    expect(second.body).to.not.have.property("next_rest_url");
    expect(second.headers.get("link")).to.include(`<${second.body.previous_rest_url}>; rel="prev"`).and.not.include('rel="next"');
    expect(second.headers.get("link")).to.include('rel="https://api.w.org/"');
    const past = await get(`${NS}/events?search=Paging%20probe&per_page=2&page=3`, { token: null });
    expect(past.status).to.equal(404);
    expect(past.body).to.deep.equal({ code: "event-archive-page-not-found", message: "The requested event archive page does not exist", data: { status: 404 } });
    const clamped = await get(`${NS}/events?per_page=100`, { token: null });
    expect(clamped.status).to.equal(200);
    const none = await get(`${NS}/events?search=nothing-matches-this`, { token: null });
    expect(none.status).to.equal(200);
    expect(none.body).to.deep.include({ events: [], total: 0, total_pages: 0 });
    expect(none.headers.get("x-tec-total")).to.equal("0");
  });

  it("clamps per_page above 50", async () => {
    const server = await startTestServer();
    for (let i = 0; i < 51; i++) await server.db("events_event").insert({ title: `Bulk ${i}`, slug: `bulk-${i}`, start_date: new Date(Date.now() + 86400000 * 3), end_date: new Date(Date.now() + 86400000 * 3 + 3600000) });
    const res = await get(`${NS}/events?search=Bulk&per_page=100`, { token: null });
    expect(res.body.events).to.have.length(50);
    expect(res.body.total).to.equal(51);
    expect(res.body.total_pages).to.equal(2);
    await server.db("events_event").where("title", "like", "Bulk %").delete();
  });

  it("rejects bad page and per_page values with rest_invalid_param", async () => {
    for (const v of ["foo", "-1", "0", "1.5"]) {
      const res = await get(`${NS}/events?page=${v}&per_page=${v}`, { token: null });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal("rest_invalid_param");
      expect(res.body.data.params).to.have.keys("page", "per_page");
    }
  });

  it("filters by start_date/end_date in every accepted format and rejects nonsense", async () => {
    await makeEvent({ title: "Window probe", start_date: "2031-05-10 10:00:00", end_date: "2031-05-10 11:00:00" });
    const ts = Math.floor(Date.UTC(2031, 4, 10) / 1000);
    for (const [s, e] of [["2031-05-10", "2031-05-10"], ["2031-05-10 09:00:00", "2031-05-10 23:00:00"], ["2031-05-10T00:00:00Z", "2031-05-11"], [String(ts), String(ts + 3600)]]) {
      const res = await get(`${NS}/events?search=Window%20probe&start_date=${encodeURIComponent(s)}&end_date=${encodeURIComponent(e)}`, { token: null });
      expect(res.body.total, `${s} → ${e}`).to.equal(1);
    }
    expect((await get(`${NS}/events?search=Window%20probe`, { token: null })).body.total).to.equal(0, "outside the default window");
    expect((await get(`${NS}/events?search=Window%20probe&start_date=2031-05-11&end_date=2031-06-01`, { token: null })).body.total).to.equal(0);
    const rel = await get(`${NS}/events?search=Jazz%20Night&start_date=today&end_date=${encodeURIComponent("+1 week")}`, { token: null });
    expect(rel.body.total).to.equal(1);
    expect((await get(`${NS}/events?search=Jazz%20Night&start_date=tomorrow&end_date=now`, { token: null })).body.total).to.equal(0);
    const past = await get(`${NS}/events?start_date=${encodeURIComponent("-60 days")}&search=Last%20Month`, { token: null });
    expect(past.body.total).to.equal(1);
    const bad = await get(`${NS}/events?start_date=before%20my%20birthday`, { token: null });
    expect(bad.status).to.equal(400);
    expect(bad.body.data.params).to.have.key("start_date");
    expect((await get(`${NS}/events?end_date=2031-13-45`, { token: null })).body.data.params).to.have.key("end_date");
  });

  it("filters by categories and tags (ids or slugs, any of) and 400s on unknown terms", async () => {
    const music = await get(`${NS}/events?categories=music`, { token: null });
    expect(music.body.events.map((e: any) => e.title)).to.include.members(["Jazz Night", "Summer Festival"]);
    expect(music.body.events.map((e: any) => e.title)).to.not.include("Town Meeting");
    const either = await get(`${NS}/events?categories[]=jazz&categories[]=3`, { token: null });
    expect(either.body.events.map((e: any) => e.title)).to.include.members(["Jazz Night", "Town Meeting", "Summer Festival"]);
    const tags = await get(`${NS}/events?tags=free-entry,family`, { token: null });
    expect(tags.body.events.map((e: any) => e.title)).to.have.members(["Jazz Night", "Town Meeting"]);
    for (const q of ["categories=nope", "tags=99999"]) {
      const res = await get(`${NS}/events?${q}`, { token: null });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal("rest_invalid_param");
    }
  });

  it("filters by venue, organizer, featured, include and post_parent", async () => {
    const venue = await get(`${NS}/events?venue=2`, { token: null });
    expect(venue.body.events.map((e: any) => e.title)).to.have.members(["Town Meeting", "Summer Festival"]);
    expect((await get(`${NS}/events?organizer=1,2`, { token: null })).body.total).to.be.at.least(3);
    expect((await get(`${NS}/events?venue=foo`, { token: null })).status).to.equal(400);
    expect((await get(`${NS}/events?venue=9999`, { token: null })).status).to.equal(400);
    const featured = await get(`${NS}/events?featured=true`, { token: null });
    expect(featured.body.events.every((e: any) => e.featured)).to.equal(true);
    const notFeatured = await get(`${NS}/events?featured=false`, { token: null });
    expect(notFeatured.body.events.every((e: any) => !e.featured)).to.equal(true);
    expect((await get(`${NS}/events?featured=maybe`, { token: null })).status).to.equal(400);
    const past = await get(`${NS}/events?include=5`, { token: null });
    expect(past.body.events.map((e: any) => e.title)).to.deep.equal(["Last Month's Concert"], "include ignores the date window");
    for (const bad of ["0", "-1", "a,1"]) expect((await get(`${NS}/events?include=${bad}`, { token: null })).status).to.equal(400);
    const parent = await makeEvent({ title: "Parent event" });
    await makeEvent({ title: "Child event", post_parent: parent.id });
    const children = await get(`${NS}/events?post_parent=${parent.id}`, { token: null });
    expect(children.body.events.map((e: any) => e.title)).to.deep.equal(["Child event"]);
    expect(children.body.events[0]).to.not.have.property("post_parent");
    expect((await get(`${NS}/events?post_parent=foo-bar`, { token: null })).status).to.equal(400);
  });

  it("filters by geolocation: geoloc and a fence around geoloc_lat/geoloc_lng", async () => {
    const geo = await get(`${NS}/events?geoloc=true`, { token: null });
    expect(geo.body.events.every((e: any) => e.venue.geo_lat !== undefined)).to.equal(true);
    const hamburg = await get(`${NS}/events?geoloc=1&geoloc_lat=53.55&geoloc_lng=9.99`, { token: null });
    expect(hamburg.body.events.map((e: any) => e.title)).to.deep.equal(["Jazz Night"]);
    const nowhere = await get(`${NS}/events?geoloc_lat=0&geoloc_lng=0`, { token: null });
    expect(nowhere.body.total).to.equal(0);
    const half = await get(`${NS}/events?geoloc_lat=53.5`, { token: null });
    expect(half.status).to.equal(400);
    expect(half.body.data.params).to.have.key("geoloc_lng");
  });

  it("never lists hide_from_listings events, which stay readable by id", async () => {
    const hidden = await makeEvent({ title: "Hidden probe", hide_from_listings: "true" });
    expect((await get(`${NS}/events?search=Hidden%20probe`, { token: null })).body.total).to.equal(0);
    expect((await get(`${NS}/events/${hidden.id}`, { token: null })).status).to.equal(200);
  });

  it("filters by status: anonymous only publish; editors any valid status list", async () => {
    const anon = await get(`${NS}/events?status=draft`, { token: null });
    expect(anon.status).to.equal(400);
    expect((await get(`${NS}/events?status=publish`, { token: null })).status).to.equal(200);
    const drafts = await get(`${NS}/events?status=${encodeURIComponent("publish, draft")}`);
    expect(drafts.body.events.map((e: any) => e.title)).to.include("Webinar: Event Planning");
    const arr = await get(`${NS}/events?status[]=draft`);
    expect(arr.body.events.every((e: any) => e.status === "draft")).to.equal(true);
    expect((await get(`${NS}/events?status=foo`)).status).to.equal(400);
    const editorDefault = await get(`${NS}/events`);
    expect(editorDefault.body.events.map((e: any) => e.title)).to.include("Webinar: Event Planning");
  });

  it("searches title and description", async () => {
    expect((await get(`${NS}/events?search=quarterly`, { token: null })).body.events.map((e: any) => e.title)).to.deep.equal(["Town Meeting"]);
    expect((await get(`${NS}/events?search=`, { token: null })).status).to.equal(400);
  });
});

describe("calendar: event writes", () => {
  it("creates an event (201) with generated unique slug, UTC dates and linked records", async () => {
    const a = await post(`${NS}/events`, { title: "Créme Brûlée Night", start_date: "2030-01-15 19:00:00", end_date: "2030-01-15 22:00:00", timezone: "America/New_York", venue: 1, organizer: [1, 2], categories: "music,New Category", tags: [1], cost: "$23" });
    expect(a.status).to.equal(201);
    expect(a.body).to.include({ title: "Créme Brûlée Night", slug: "creme-brulee-night", start_date: "2030-01-15 19:00:00", utc_start_date: "2030-01-16 00:00:00", timezone_abbr: "EST", cost: "$23", status: "publish" });
    expect(a.body.venue.id).to.equal(1);
    expect(a.body.organizer.map((o: any) => o.id)).to.deep.equal([1, 2]);
    expect(a.body.categories.map((c: any) => c.name)).to.deep.equal(["Music", "New Category"]);
    const b = await post(`${NS}/events`, { title: "Créme Brûlée Night", start_date: "2030-01-15 19:00:00", end_date: "2030-01-15 22:00:00" });
    expect(b.body.slug).to.equal("creme-brulee-night-2");
    const server = await startTestServer();
    const row = await server.db("events_event").where("id", a.body.id).first();
    expect(row.title).to.equal("Créme Brûlée Night");
    expect(await server.db("events_category").where("name", "New Category").first()).to.be.an("object");
  });

  it("accepts form-encoded bodies with a[]= arrays and nested venue data, reusing identical venues", async () => {
    const body = "title=Form+event&start_date=2030-02-01+10:00:00&end_date=2030-02-01+11:00:00&organizer[]=1&tags[]=family&venue[venue]=Form+Hall&venue[city]=Oslo&cost[]=0&cost[]=20$&cost[]=30$";
    const res = await form("POST", `${NS}/events`, body);
    expect(res.status).to.equal(201);
    expect(res.body.venue).to.include({ venue: "Form Hall", city: "Oslo" });
    expect(res.body.organizer[0].id).to.equal(1);
    expect(res.body.tags[0].slug).to.equal("family");
    expect(res.body.cost).to.equal("Free – 30$");
    expect(res.body.cost_details).to.include({ currency_symbol: "$", currency_position: "postfix" });
    const again = await post(`${NS}/events`, { title: "Second form event", start_date: "2030-02-02", end_date: "2030-02-02", venue: { venue: "form hall" } });
    expect(again.body.venue.id).to.equal(res.body.venue.id);
    const bad = await post(`${NS}/events`, { title: "Bad venue", start_date: "2030-02-02", end_date: "2030-02-02", venue: { city: "No name" } });
    expect(bad.status).to.equal(400);
    expect(bad.body.data.params).to.have.key("venue");
  });

  it("requires title, start_date and end_date and validates every field", async () => {
    const missing = await post(`${NS}/events`, { title: "No dates" });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ code: "rest_missing_callback_param", message: "Missing parameter(s): start_date, end_date", data: { status: 400, params: ["start_date", "end_date"] } });
    const bad = await post(`${NS}/events`, { title: "", start_date: "nonsense", end_date: "2030-01-01", website: "foo", all_day: "perhaps", status: "kinda", timezone: "Mars/Base", author: "23", image: "not a url" });
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal("rest_invalid_param");
    expect(Object.keys(bad.body.data.params)).to.have.members(["title", "start_date", "website", "all_day", "status", "timezone", "author", "image"]);
    const before = await post(`${NS}/events`, { title: "Backwards", start_date: "2030-01-02", end_date: "2030-01-01" });
    expect(before.status).to.equal(400);
    expect(before.body.data.params).to.have.key("end_date");
    const server = await startTestServer();
    expect(await server.db("events_event").where("title", "Backwards").first()).to.equal(undefined);
  });

  it("normalises all-day events to whole days", async () => {
    const res = await post(`${NS}/events`, { title: "All day probe", start_date: "tomorrow 9am", end_date: "+5 days 11am", all_day: true });
    expect(res.body.start_date).to.match(/ 00:00:00$/);
    expect(res.body.end_date).to.match(/ 23:59:59$/);
  });

  it("updates partially with POST, PUT and PATCH, by id and by slug", async () => {
    const e = await makeEvent({ title: "Update probe", featured: true, website: "https://example.org/x", categories: "music" });
    const r1 = await patch(`${NS}/events/${e.id}`, { title: "Updated probe" });
    expect(r1.status).to.equal(200);
    expect(r1.body).to.include({ title: "Updated probe", featured: true, website: "https://example.org/x", start_date: e.start_date });
    expect(r1.body.categories.map((c: any) => c.slug)).to.deep.equal(["music"]);
    const r2 = await put(`${NS}/events/by-slug/${e.slug}`, { excerpt: "short" });
    expect(r2.body).to.include({ excerpt: "<p>short</p>", title: "Updated probe" });
    const r3 = await form("POST", `${NS}/events/${e.id}`, "organizer=&categories=&end_date=2040-01-01");
    expect(r3.status).to.equal(200);
    expect(r3.body.organizer).to.deep.equal([]);
    expect(r3.body.categories).to.deep.equal([]);
    expect(r3.body.end_date).to.equal("2040-01-01 00:00:00");
    const slug = await patch(`${NS}/events/${e.id}`, { slug: "renamed-probe" });
    expect(slug.body.slug).to.equal("renamed-probe");
    expect((await get(`${NS}/events/by-slug/renamed-probe`, { token: null })).body.id).to.equal(e.id);
    expect((await patch(`${NS}/events/999999`, { title: "x" })).status).to.equal(404);
    expect((await patch(`${NS}/events/${e.id}`, { start_date: "2050-01-01" })).status).to.equal(400, "start after end");
  });

  it("reads by id and slug with the plugin's codes", async () => {
    const e = await makeEvent({ title: "Read probe" });
    expect((await get(`${NS}/events/${e.id}`, { token: null })).body.title).to.equal("Read probe");
    expect((await get(`${NS}/events/by-slug/${e.slug}`, { token: null })).body.id).to.equal(e.id);
    const missing = await get(`${NS}/events/13000`, { token: null });
    expect(missing.body).to.deep.equal({ code: "rest-event-not-found", message: "Event with ID 13000 does not exist.", data: { status: 404 } });
    const slug = await get(`${NS}/events/by-slug/non-existing-event`, { token: null });
    expect(slug.status).to.equal(400);
    expect(slug.body.data.params).to.have.key("slug");
    const draft = await get(`${NS}/events/4`, { token: null });
    expect(draft.status).to.equal(403);
    expect(draft.body.code).to.equal("event-not-accessible");
    expect((await get(`${NS}/events/4`)).status).to.equal(200);
  });

  it("trashes on delete (200 with record), 410 when trashed again, force=true deletes permanently", async () => {
    const e = await makeEvent({ title: "Delete probe" });
    const first = await del(`${NS}/events/${e.id}`);
    expect(first.status).to.equal(200);
    expect(first.body).to.include({ id: e.id, status: "trash" });
    const again = await del(`${NS}/events/${e.id}`);
    expect(again.body).to.deep.equal({ code: "event-is-in-trash", message: "The event is already trashed", data: { status: 410 } });
    const gone = await get(`${NS}/events/${e.id}`, { token: null });
    expect(gone.status).to.equal(403);
    expect(gone.body.code).to.equal("event-no-longer-available");
    const server = await startTestServer();
    expect((await server.db("events_event").where("id", e.id).first()).status).to.equal("trash");
    const forced = await del(`${NS}/events/${e.id}?force=true`);
    expect(forced.status).to.equal(200);
    expect(await server.db("events_event").where("id", e.id).first()).to.equal(undefined);
    const bySlug = await makeEvent({ title: "Slug delete probe" });
    expect((await call("DELETE", `${NS}/events/by-slug/${bySlug.slug}`)).body.status).to.equal("trash");
    expect((await del(`${NS}/events/999999`)).status).to.equal(404);
  });

  it("applies contributor rules: drafts by default, publish scaled to pending, own unpublished only", async () => {
    const c = await contributorUser();
    const own = await post(`${NS}/events`, { title: "Contributor draft", start_date: "2030-03-01", end_date: "2030-03-01" }, { token: c.key });
    expect(own.status).to.equal(201);
    expect(own.body.status).to.equal("draft");
    expect(own.body.author).to.equal(c.id);
    const pending = await post(`${NS}/events`, { title: "Contributor publish", start_date: "2030-03-01", end_date: "2030-03-01", status: "publish" }, { token: c.key });
    expect(pending.body.status).to.equal("pending");
    expect((await patch(`${NS}/events/${own.body.id}`, { title: "Mine" }, { token: c.key })).status).to.equal(200);
    const others = await patch(`${NS}/events/1`, { title: "Not mine" }, { token: c.key });
    expect(others.status).to.equal(403);
    expect(others.body.code).to.equal("rest_forbidden");
    expect((await del(`${NS}/events/1`, undefined, { token: c.key })).status).to.equal(403);
    expect((await get(`${NS}/events/${own.body.id}`, { token: c.key })).status).to.equal(200);
    expect((await del(`${NS}/events/${own.body.id}`, undefined, { token: c.key })).status).to.equal(200);
  });

  it("refuses anonymous writes with 401", async () => {
    for (const [method, path] of [["POST", `${NS}/events`], ["PATCH", `${NS}/events/1`], ["DELETE", `${NS}/events/1`], ["POST", `${NS}/events/by-slug/jazz-night`]]) {
      const res = await call(method, path, { token: null, body: { title: "x" } });
      expect(res.status, `${method} ${path}`).to.equal(401);
      expect(res.body).to.deep.equal({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 401 } });
    }
    const server = await startTestServer();
    expect((await server.db("events_event").where("id", 1).first()).title).to.equal("Jazz Night");
  });
});
