// Venues and organizers over HTTP: archives with their filters, by-id and by-slug routes,
// writes (direct creation de-duplicated like inline creation), trash semantics and visibility.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { get, post, patch, del, call } from "../../support/http.js";
import { NS, makeEvent, contributorUser } from "./support.js";

describe("calendar: venues and organizers", () => {
  it("lists venues and organizers in their envelopes with totals and headers", async () => {
    for (const kind of ["venues", "organizers"]) {
      const res = await get(`${NS}/${kind}`, { token: null });
      expect(res.status).to.equal(200);
      // Other suites on the shared server may have left more than a page: then the next one is linked.
      expect(res.body).to.have.keys(kind, "rest_url", "total", "total_pages", ...(res.body.total_pages > 1 ? ["next_rest_url"] : []));
      expect(res.headers.get("x-tec-total")).to.equal(String(res.body.total));
      expect(res.headers.get("x-wp-totalpages")).to.equal(String(res.body.total_pages));
    }
    const past = await get(`${NS}/venues?page=99`, { token: null });
    expect(past.status).to.equal(404);
    expect(past.body.code).to.equal("venue-archive-page-not-found");
    expect((await get(`${NS}/organizers?page=99`, { token: null })).body.code).to.equal("organizer-archive-page-not-found");
    expect((await get(`${NS}/venues?per_page=0`, { token: null })).status).to.equal(400);
  });

  it("drops empty values from venue records and keeps show_map flags", async () => {
    const res = await get(`${NS}/venues/by-slug/online`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ venue: "Online", show_map: true, show_map_link: true });
    expect(res.body).to.not.have.any.keys("city", "address", "image", "geo_lat", "rest_url");
  });

  it("filters by search, event, has_events, only_with_upcoming and status", async () => {
    expect((await get(`${NS}/venues?search=hamburg`, { token: null })).body.venues.map((v: any) => v.venue)).to.deep.equal(["Blue Room"]);
    expect((await get(`${NS}/organizers?search=jazzclub.example`, { token: null })).body.organizers.map((v: any) => v.organizer)).to.deep.equal(["Jazz Club Hamburg"]);
    expect((await get(`${NS}/venues?event=2`, { token: null })).body.venues.map((v: any) => v.venue)).to.deep.equal(["Town Hall"]);
    expect((await get(`${NS}/organizers?event=1`, { token: null })).body.organizers.map((v: any) => v.id)).to.deep.equal([1]);
    expect((await get(`${NS}/venues?event=999999`, { token: null })).status).to.equal(400);
    await post(`${NS}/venues`, { venue: "Lonely Place" });
    const withEvents = (await get(`${NS}/venues?has_events=true&per_page=50`, { token: null })).body.venues.map((v: any) => v.venue);
    expect(withEvents).to.include("Blue Room").and.not.include("Lonely Place");
    const without = (await get(`${NS}/venues?has_events=false&per_page=50`, { token: null })).body.venues.map((v: any) => v.venue);
    expect(without).to.include("Lonely Place").and.not.include("Blue Room");
    const upcoming = (await get(`${NS}/venues?only_with_upcoming=true&per_page=50`, { token: null })).body.venues.map((v: any) => v.venue);
    expect(upcoming).to.include("Town Hall").and.not.include("Lonely Place").and.not.include("Online");
    expect((await get(`${NS}/venues?status=draft`, { token: null })).status).to.equal(400);
    expect((await get(`${NS}/venues?status=draft`)).status).to.equal(200);
  });

  it("creates (201), validates, reads by id and slug, updates partially", async () => {
    const missing = await post(`${NS}/venues`, { city: "Nowhere" });
    expect(missing.status).to.equal(400);
    expect(missing.body.code).to.equal("rest_missing_callback_param");
    const bad = await post(`${NS}/venues`, { venue: "Bad", website: "foo", status: "kinda_thinking_about_it", geo_lat: 200 });
    expect(Object.keys(bad.body.data.params)).to.have.members(["website", "status", "geo_lat"]);
    const v = await post(`${NS}/venues`, { venue: "Main Stage", city: "Austin", state: "TX", country: "US" });
    expect(v.status).to.equal(201);
    expect(v.body).to.include({ venue: "Main Stage", slug: "main-stage", stateprovince: "TX" });
    expect((await get(`${NS}/venues/${v.body.id}`, { token: null })).body.city).to.equal("Austin");
    const up = await patch(`${NS}/venues/by-slug/main-stage`, { phone: "555" });
    expect(up.body).to.include({ phone: "555", city: "Austin" });
    const cleared = await patch(`${NS}/venues/${v.body.id}`, { city: "" });
    expect(cleared.body).to.not.have.property("city");
    const o = await post(`${NS}/organizers`, { organizer: "Org Probe", email: "not-checked" });
    expect(o.status).to.equal(201);
    expect(o.body.email).to.equal("not-checked");
    expect((await get(`${NS}/organizers/by-slug/org-probe`, { token: null })).body.id).to.equal(o.body.id);
    expect((await get(`${NS}/venues/999999`, { token: null })).body.code).to.equal("rest-venue-not-found");
    expect((await get(`${NS}/organizers/by-slug/nope`, { token: null })).status).to.equal(400);
  });

  it("trashes, 410s and force-deletes venues, unlinking them from events", async () => {
    const v = await post(`${NS}/venues`, { venue: "Doomed Venue" });
    const e = await makeEvent({ venue: v.body.id });
    const first = await del(`${NS}/venues/${v.body.id}`);
    expect(first.status).to.equal(200);
    expect(first.body.status).to.equal("trash");
    expect((await del(`${NS}/venues/${v.body.id}`)).body.code).to.equal("venue-is-in-trash");
    expect((await get(`${NS}/venues/${v.body.id}`, { token: null })).status).to.equal(403);
    expect((await del(`${NS}/venues/${v.body.id}?force=1`)).status).to.equal(200);
    expect((await get(`${NS}/events/${e.id}`, { token: null })).body.venue).to.deep.equal([]);
    const o = await post(`${NS}/organizers`, { organizer: "Doomed Org" });
    expect((await call("DELETE", `${NS}/organizers/by-slug/doomed-org`)).body.status).to.equal("trash");
    expect((await del(`${NS}/organizers/${o.body.id}`)).body.code).to.equal("organizer-is-in-trash");
  });

  it("hides non-published venues from anonymous readers and guards writes", async () => {
    const v = await post(`${NS}/venues`, { venue: "Secret Venue", status: "draft" });
    const anon = await get(`${NS}/venues/${v.body.id}`, { token: null });
    expect(anon.status).to.equal(403);
    expect(anon.body.code).to.equal("venue-not-accessible");
    expect((await get(`${NS}/venues/${v.body.id}`)).status).to.equal(200);
    expect((await post(`${NS}/venues`, { venue: "x" }, { token: null })).status).to.equal(401);
    const c = await contributorUser();
    expect((await patch(`${NS}/venues/1`, { city: "x" }, { token: c.key })).status).to.equal(403);
    const server = await startTestServer();
    expect((await server.db("venues_venue").where("id", 1).first()).city).to.equal("Hamburg");
  });
});
