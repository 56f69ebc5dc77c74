// Details of the plugin's wire format that a review against the reference found missing:
// key order of linked posts, rendered HTML content, type errors under `data.details`, route
// registration order in the namespace index, term archive paging links, and unknown body
// parameters ignored on writes.
import { expect } from "chai";
import { del, get, post } from "../../support/http.js";
import { NS, makeEvent as makeAnyEvent } from "./support.js";

/** Events beyond the default archive window, so other suites' first pages stay as they were. */
const makeEvent = (data: Record<string, unknown> = {}) => makeAnyEvent({ start_date: "+3 years 10:00", end_date: "+3 years 12:00", ...data });

describe("calendar: conformance details", () => {
  it("appends global_id and global_id_lineage after the filtered venue and organizer keys", async () => {
    const v = await post(`${NS}/venues`, { venue: "Key Order Hall", city: "Lyon" });
    expect(Object.keys(v.body).slice(-4)).to.deep.equal(["show_map", "show_map_link", "global_id", "global_id_lineage"]);
    const o = await post(`${NS}/organizers`, { organizer: "Key Order Org", email: "k@example.org" });
    expect(Object.keys(o.body).slice(-3)).to.deep.equal(["email", "global_id", "global_id_lineage"]);
    const e = await makeEvent({ venue: v.body.id, organizer: [o.body.id] });
    expect(Object.keys(e.venue).slice(-2)).to.deep.equal(["global_id", "global_id_lineage"]);
    expect(Object.keys(e.organizer[0]).slice(-2)).to.deep.equal(["global_id", "global_id_lineage"]);
  });

  it("renders description and excerpt as HTML paragraphs, as WordPress content filters do", async () => {
    const e = await makeEvent({ description: "First line\nsecond line\n\nNext paragraph", excerpt: "Short." });
    expect(e.description).to.equal("<p>First line<br />\nsecond line</p>\n<p>Next paragraph</p>");
    expect(e.excerpt).to.equal("<p>Short.</p>");
    expect((await get(`${NS}/events/${e.id}`, { token: null })).body.description).to.equal(e.description);
    const kept = await makeEvent({ description: "<p>Already HTML.</p>" });
    expect(kept.description).to.equal("<p>Already HTML.</p>");
    expect((await makeEvent()).description).to.equal("");
    const v = await post(`${NS}/venues`, { venue: "Paragraph Hall", description: "A hall." });
    expect(v.body.description).to.equal("<p>A hall.</p>");
  });

  it("reports type errors under data.details as rest_invalid_type, other errors with empty details", async () => {
    const res = await get(`${NS}/events?featured=maybe`, { token: null });
    expect(res.status).to.equal(400);
    expect(res.body.data.params).to.deep.equal({ featured: "featured is not of type boolean." });
    expect(res.body.data.details).to.deep.equal({
      featured: { code: "rest_invalid_type", message: "featured is not of type boolean.", data: { param: "featured" } },
    });
    const write = await post(`${NS}/events`, { title: "Typed", start_date: "+1 day", end_date: "+1 day 1 hour", sticky: "perhaps", website: "foo" });
    expect(write.status).to.equal(400);
    expect(write.body.data.params).to.have.keys("sticky", "website");
    expect(write.body.data.details).to.have.keys("sticky");
    expect(write.body.data.details.sticky.code).to.equal("rest_invalid_type");
    expect((await get(`${NS}/events?page=0`, { token: null })).body.data.details).to.deep.equal([]);
  });

  it("lists the namespace's routes in registration order: post types before taxonomies", async () => {
    const res = await get(`${NS}/`, { token: null });
    const routes = Object.keys(res.body.routes).map((r) => r.replace("/calendar/events/v1", "").split("/")[1] ?? "");
    expect([...new Set(routes)]).to.deep.equal(["", "doc", "events", "venues", "organizers", "categories", "tags"]);
  });

  it("answers unknown paths under the REST root with rest_no_route and the discovery link", async () => {
    for (const path of ["/wp-json/nope", "/wp-json/calendar", "/wp-json/wp/v2/posts"]) {
      const res = await get(path, { token: null });
      expect(res.status, path).to.equal(404);
      expect(res.body, path).to.deep.equal({ code: "rest_no_route", message: "No route was found matching the URL and request method.", data: { status: 404 } });
      expect(res.headers.get("link"), path).to.match(/\/wp-json\/>; rel="https:\/\/api\.w\.org\/"/);
    }
    expect((await get("/api/nope/", { token: null })).body).to.deep.equal({ detail: "Not found." });
  });

  it("avoids duplicates when venues and organizers are created directly, after validating", async () => {
    const first = await post(`${NS}/venues`, { venue: "Twin Hall", description: "The first one." });
    expect(first.status).to.equal(201);
    const again = await post(`${NS}/venues`, { venue: "twin hall" });
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    expect((await post(`${NS}/venues`, { venue: "Twin Hall", description: "Another one." })).body.id).to.not.equal(first.body.id);
    expect((await post(`${NS}/venues`, { venue: "Twin Hall", website: "foo" })).status).to.equal(400);
    const org = await post(`${NS}/organizers`, { organizer: "Twin Org" });
    expect((await post(`${NS}/organizers`, { organizer: "TWIN ORG", phone: "1" })).body.id).to.equal(org.body.id);
  });

  it("refuses an empty event description or excerpt, on create and update; venues may clear theirs", async () => {
    const bad = await post(`${NS}/events`, { title: "Empty text", start_date: "+3 years", end_date: "+3 years", description: "", excerpt: " " });
    expect(bad.status).to.equal(400);
    expect(bad.body.data.params).to.have.keys("description", "excerpt");
    const e = await makeEvent({ description: "Kept." });
    const up = await post(`${NS}/events/${e.id}`, { description: "" });
    expect(up.status).to.equal(400);
    expect((await get(`${NS}/events/${e.id}`, { token: null })).body.description).to.equal("<p>Kept.</p>");
    const v = await post(`${NS}/venues`, { venue: "Clearable Hall", description: "Soon gone." });
    const cleared = await post(`${NS}/venues/${v.body.id}`, { description: "" });
    expect(cleared.status).to.equal(200);
    expect(cleared.body).to.not.have.property("description");
  });

  it("refuses an empty term description on create and update", async () => {
    for (const kind of ["categories", "tags"]) {
      const bad = await post(`${NS}/${kind}`, { name: `Blank ${kind}`, description: "" });
      expect(bad.status, kind).to.equal(400);
      expect(bad.body.data.params, kind).to.have.keys("description");
      const made = await post(`${NS}/${kind}`, { name: `Described ${kind}`, description: "Words." });
      expect(made.status, kind).to.equal(201);
      expect((await post(`${NS}/${kind}/${made.body.id}`, { description: "" })).status, kind).to.equal(400);
    }
  });

  it("unlinks a trashed venue or organizer from its events", async () => {
    const v = await post(`${NS}/venues`, { venue: "Trash Linked Hall" });
    const o = await post(`${NS}/organizers`, { organizer: "Trash Linked Org" });
    const keep = await post(`${NS}/organizers`, { organizer: "Staying Org" });
    const e = await makeEvent({ venue: v.body.id, organizer: [o.body.id, keep.body.id] });
    expect((await del(`${NS}/venues/${v.body.id}`)).status).to.equal(200);
    expect((await del(`${NS}/organizers/${o.body.id}`)).status).to.equal(200);
    const after = (await get(`${NS}/events/${e.id}`, { token: null })).body;
    expect(after.venue).to.deep.equal([]);
    expect(after.organizer.map((x: any) => x.id)).to.deep.equal([keep.body.id]);
    expect((await get(`${NS}/venues?event=${e.id}`)).body.total).to.equal(0);
  });

  it("answers ids beyond the integer keys and NUL characters without a server error", async () => {
    const huge = "2147483648";
    expect((await get(`${NS}/events/${huge}`, { token: null })).body.code).to.equal("rest-event-not-found");
    expect((await get(`${NS}/events/99999999999999999999`, { token: null })).status).to.equal(404);
    expect((await get(`${NS}/categories/${huge}`, { token: null })).body.code).to.equal("rest_term_invalid");
    for (const q of [`events?include=${huge}`, `events?venue=${huge}`, `events?categories=${huge}`, `events?post_parent=${huge}`,
      `categories?post=${huge}`, `categories?include=${huge}`, `categories?parent=${huge}`, `venues?event=${huge}`, "events?search=%00", "venues/by-slug/a%00b"]) {
      const res = await get(`${NS}/${q}`, { token: null });
      expect(res.status, q).to.equal(400);
      expect(res.body.code, q).to.equal("rest_invalid_param");
    }
    expect((await get(`${NS}/events?page=99999999999999999999`, { token: null })).body.code).to.equal("event-archive-page-not-found");
    expect((await get(`${NS}/events?x%00=1`, { token: null })).status).to.equal(200);
    const base = { title: "Huge ids", start_date: "+3 years", end_date: "+3 years" };
    for (const extra of [{ venue: Number(huge) }, { organizer: [Number(huge)] }, { post_parent: huge }, { title: "nul\u0000" }]) {
      expect((await post(`${NS}/events`, { ...base, ...extra })).status, JSON.stringify(extra)).to.equal(400);
    }
    const skipped = await post(`${NS}/events`, { ...base, categories: [Number(huge)] });
    expect(skipped.status).to.equal(201);
    expect(skipped.body.categories).to.deep.equal([]);
  });

  it("sets an event's author to an existing user, refuses an unknown one", async () => {
    const someone = (await get(`${NS}/events/1`, { token: null })).body.author;
    const made = await post(`${NS}/events`, { title: "Authored", start_date: "+3 years", end_date: "+3 years", author: someone });
    expect(made.status).to.equal(201);
    expect(made.body.author).to.equal(someone);
    const unknown = await post(`${NS}/events`, { title: "Authored", start_date: "+3 years", end_date: "+3 years", author: "00000000-0000-0000-0000-000000000000" });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.data.params).to.have.keys("author");
  });

  it("refuses dates outside four-digit years with 400, and keeps years below 100 as given", async () => {
    const far = await post(`${NS}/events`, { title: "Far", start_date: "+99999 years", end_date: "+99999 years", date: "+99999 years" });
    expect(far.status).to.equal(400);
    expect(far.body.data.params).to.have.keys("start_date", "end_date", "date");
    expect((await get(`${NS}/events?start_date=%2B99999%20years`, { token: null })).status).to.equal(400);
    const early = await post(`${NS}/events`, { title: "Early", start_date: "0050-01-01 10:00", end_date: "0050-01-01 11:00" });
    expect(early.body.start_date).to.equal("0050-01-01 10:00:00");
  });

  it("links a term archive page past the end to the page before it", async () => {
    const res = await get(`${NS}/categories?page=7&hide_empty=false`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.body.categories).to.deep.equal([]);
    expect(res.body.previous_rest_url).to.equal(`${res.body.rest_url}?page=6`);
    expect(res.body).to.not.have.property("next_rest_url");
  });

  it("ignores parameters it does not know on every write, as WordPress's REST API does", async () => {
    const made = await post(`${NS}/events`, { title: "Unknown params", start_date: "+3 years 10:00", end_date: "+3 years 12:00", colour: "red", force: true });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.not.have.any.keys("colour", "force");
    const changed = await post(`${NS}/events/${made.body.id}`, { title: "Unknown params, changed", colour: "blue" });
    expect([changed.status, changed.body.title]).to.deep.equal([200, "Unknown params, changed"]);
    const venue = await post(`${NS}/venues`, { venue: "Unknown Params Hall", colour: "red" });
    expect([venue.status, venue.body.venue]).to.deep.equal([201, "Unknown Params Hall"]);
    const organizer = await post(`${NS}/organizers`, { organizer: "Unknown Params Org", colour: "red" });
    expect([organizer.status, organizer.body.organizer]).to.deep.equal([201, "Unknown Params Org"]);
    const tag = await post(`${NS}/tags`, { name: "Unknown params tag", colour: "red" });
    expect([tag.status, tag.body.name]).to.deep.equal([201, "Unknown params tag"]);
  });
});
