// What keeps the calendar's data sound under hostile input and concurrency: dates outside
// what the database stores are 400s naming the parameter, every write field refuses a value
// of the wrong JSON type, and parallel writes of one name, slug or record end as some
// sequential order of the same requests would (one term per name, distinct slugs, one
// successful delete), never with a 5xx.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { get, post, put, del, type Reply } from "../../support/http.js";
import { NS, makeEvent } from "./support.js";

const TABLES: Record<string, string> = {
  events: "events_event", venues: "venues_venue", organizers: "organizers_organizer", categories: "events_category", tags: "events_tag",
};

async function count(table: string): Promise<number> {
  const [{ n }] = await (await startTestServer()).db(table).count("* as n");
  return Number(n);
}

function statuses(replies: Reply[]): number[] {
  return replies.map((r) => r.status).sort();
}

function expectInvalid(res: Reply, param: string, label: string): void {
  expect(res.status, `${label}: ${res.text}`).to.equal(400);
  expect(res.body.code, label).to.equal("rest_invalid_param");
  expect(res.body.data.params, label).to.have.property(param);
}

const OUT_OF_RANGE = [
  "-99999999999", "-62135596801", "+99999999 years", "-99999999 years", "+999999999999 days",
  "+9999999999999999 weeks", "0000-01-01", "0001-01-01T00:00:00+14:00", "9999-12-31T20:00:00-14:00", "+8000 years", "-2030 years",
];

describe("calendar: integrity", () => {
  // The suites share one database: rows made here are removed afterwards (events first, so
  // their links go with them), leaving the demo data the other suites count on.
  const CLEANUP = ["events", "venues", "organizers", "tags", "categories"];
  const lastIds: Record<string, number> = {};

  before(async () => {
    const db = (await startTestServer()).db;
    for (const list of CLEANUP) lastIds[list] = Number((await db(TABLES[list]).max("id as id"))[0].id ?? 0);
  });

  after(async () => {
    const db = (await startTestServer()).db;
    for (const list of CLEANUP) await db(TABLES[list]).where("id", ">", lastIds[list]).delete();
  });

  describe("dates out of range", () => {
    it("refuses them in archive filters with 400 naming the parameter, and keeps the extremes it accepts", async () => {
      for (const name of ["start_date", "end_date"]) {
        for (const v of OUT_OF_RANGE) expectInvalid(await get(`${NS}/events?${name}=${encodeURIComponent(v)}`, { token: null }), name, `${name}=${v}`);
      }
      for (const [start, end] of [["0001-01-01", "9999-12-31"], ["-62135596800", "99999999999"], ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]]) {
        const res = await get(`${NS}/events?start_date=${start}&end_date=${end}`, { token: null });
        expect(res.status, `${start}..${end}: ${res.text}`).to.equal(200);
      }
    });

    it("refuses them in write bodies, for every date field of every model, writing nothing", async () => {
      const e = await makeEvent({ title: "Date range probe" });
      const bodies: Array<[string, Record<string, unknown>, string]> = [
        ["events", { title: "Range probe", start_date: "2030-01-01", end_date: "2030-01-02" }, "start_date"],
        ["events", { title: "Range probe", start_date: "2030-01-01", end_date: "2030-01-02" }, "end_date"],
        ["events", { title: "Range probe", start_date: "2030-01-01", end_date: "2030-01-02" }, "date"],
        ["venues", { venue: "Range probe hall" }, "date"],
        ["organizers", { organizer: "Range probe people" }, "date"],
      ];
      for (const [list, base, field] of bodies) {
        const before = await count(TABLES[list]);
        for (const v of OUT_OF_RANGE) {
          const body = { ...base, [field]: v, ...(field === "start_date" ? { end_date: v } : {}) };
          expectInvalid(await post(`${NS}/${list}`, body), field, `POST ${list} ${field}=${v}`);
        }
        expect(await count(TABLES[list]), list).to.equal(before);
      }
      for (const field of ["start_date", "end_date", "date"]) {
        for (const v of ["-99999999999", "+99999999 years", "0001-01-01T00:00:00+14:00"]) {
          expectInvalid(await put(`${NS}/events/${e.id}`, { [field]: v }), field, `PUT ${field}=${v}`);
        }
      }
      const zoned = await post(`${NS}/events`, { title: "Range probe", start_date: "0001-01-01 05:00", end_date: "0001-01-01 06:00", timezone: "UTC+14" });
      expectInvalid(zoned, "start_date", "start in year 0 UTC");
      expect((await get(`${NS}/events/${e.id}`)).body).to.include({ start_date: e.start_date, end_date: e.end_date, date: e.date });
      const edge = await post(`${NS}/events`, { title: "Range edge", start_date: "0001-01-01 00:00", end_date: "9999-12-31 23:59:59" });
      expect(edge.status, edge.text).to.equal(201);
      expect(edge.body).to.include({ start_date: "0001-01-01 00:00:00", utc_end_date: "9999-12-31 23:59:59" });
    });

    it("refuses timezones whose offset would carry a date out of range", async () => {
      for (const tz of ["UTC+99", "UTC-99:99", "UTC+15", "UTC+5:75"]) {
        expectInvalid(await post(`${NS}/events`, { title: "Zone probe", start_date: "2030-01-01", end_date: "2030-01-01", timezone: tz }), "timezone", tz);
      }
      const ok = await post(`${NS}/events`, { title: "Zone probe", start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00", timezone: "UTC+14" });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.utc_start_date).to.equal("2029-12-31 20:00:00");
    });
  });

  describe("other values the database would refuse", () => {
    it("keeps slugs of long titles within the slug column, unique too", async () => {
      const title = `${"Long title ".repeat(23)}end`.slice(0, 255);
      const a = await post(`${NS}/events`, { title, start_date: "2030-01-01", end_date: "2030-01-01" });
      const b = await post(`${NS}/events`, { title, start_date: "2030-01-01", end_date: "2030-01-01" });
      expect([a.status, b.status], a.text + b.text).to.deep.equal([201, 201]);
      expect(a.body.slug).to.have.length.at.most(200);
      expect(b.body.slug).to.have.length.at.most(200).and.match(/-2$/).and.not.equal(a.body.slug);
      const tag = await post(`${NS}/tags`, { name: "ﬃ".repeat(200) });
      expect(tag.status, tag.text).to.equal(201);
      expect(tag.body.slug).to.have.length.at.most(200);
    });

    it("refuses term names too long for the term table when an event creates them", async () => {
      const before = await count("events_tag");
      const res = await post(`${NS}/events`, { title: "Long tag probe", start_date: "2030-01-01", end_date: "2030-01-01", tags: ["x".repeat(201)] });
      expectInvalid(res, "tags", "tags");
      expect(await count("events_tag")).to.equal(before);
    });

    it("refuses malformed uuids, huge ids and geolocation values of the wrong type", async () => {
      expectInvalid(await post(`${NS}/venues`, { venue: "Uuid probe", author: "-".repeat(36) }), "author", "author");
      expectInvalid(await post(`${NS}/events`, { title: "Id probe", start_date: "2030-01-01", end_date: "2030-01-01", venue: { id: 99999999999 } }), "venue", "venue id");
      expectInvalid(await post(`${NS}/events`, { title: "Id probe", start_date: "2030-01-01", end_date: "2030-01-01", organizer: [{ id: 0 }] }), "organizer", "organizer id");
      expectInvalid(await post(`${NS}/events`, { title: "Id probe", start_date: "2030-01-01", end_date: "2030-01-01", post_parent: 99999999999 }), "post_parent", "post_parent");
      expectInvalid(await get(`${NS}/events?geoloc_lat[]=1&geoloc_lng=2`, { token: null }), "geoloc_lat", "geoloc_lat array");
      expect((await get(`${NS}/events?categories=99999999999`, { token: null })).status).to.equal(400);
      expect((await get(`${NS}/events/99999999999`, { token: null })).status).to.equal(404);
    });
  });

  describe("write fields of the wrong JSON type", () => {
    const bases: Record<string, () => Record<string, unknown>> = {
      events: () => ({ title: "Type probe", start_date: "2030-01-01", end_date: "2030-01-02" }),
      venues: () => ({ venue: "Type probe hall" }),
      organizers: () => ({ organizer: "Type probe people" }),
      categories: () => ({ name: `Type probe ${Math.random()}` }),
      tags: () => ({ name: `Type probe ${Math.random()}` }),
    };
    const WRONG: Record<string, unknown[]> = {
      string: [[], ["a"], {}, { a: 1 }, true, false],
      number: [[], [1], {}, true, "abc", "1,5"],
      boolean: [[], [true], {}, "maybe", 2],
    };

    async function writeArgs(list: string): Promise<Record<string, { type?: string; required: boolean }>> {
      const index = await get(`${NS}/`, { token: null });
      return index.body.routes[`/calendar/events/v1/${list}`].endpoints[1].args;
    }

    for (const list of Object.keys(bases)) {
      it(`${list}: every typed field refuses other JSON types with rest_invalid_type, writing nothing`, async () => {
        const args = await writeArgs(list);
        const typed = Object.entries(args).filter(([, a]) => a.type);
        expect(typed.length).to.be.at.least(2);
        const db = (await startTestServer()).db;
        const existing = (await post(`${NS}/${list}`, bases[list]())).body;
        const row = await db(TABLES[list]).where("id", existing.id).first();
        const before = await count(TABLES[list]);
        for (const [name, arg] of typed) {
          // The plugin takes a list of prices for the money field (see event writes).
          const wrong = WRONG[arg.type!].filter((v) => !(name === "cost" && Array.isArray(v)));
          // null is no string or boolean; it clears an optional number (a venue's coordinates).
          for (const v of [...wrong, ...(arg.required || arg.type === "number" ? [] : [null])]) {
            const label = `${list}.${name}=${JSON.stringify(v)}`;
            for (const res of [await post(`${NS}/${list}`, { ...bases[list](), [name]: v }), await put(`${NS}/${list}/${existing.id}`, { [name]: v })]) {
              expectInvalid(res, name, label);
              expect(res.body.data.details, label).to.have.nested.property(`${name}.code`, "rest_invalid_type");
            }
          }
        }
        expect(await count(TABLES[list])).to.equal(before);
        expect(await db(TABLES[list]).where("id", existing.id).first()).to.deep.equal(row);
      });
    }

    it("events: linked fields refuse values that are neither ids, lists nor objects", async () => {
      const before = await count("events_event");
      for (const name of ["venue", "organizer", "categories", "tags", "post_parent"]) {
        // A number that is no id is a term name for categories and tags, as in the plugin.
        for (const v of [true, [[1]], [true], {}, ...(name === "categories" || name === "tags" ? [] : [1.5])]) {
          const res = await post(`${NS}/events`, { ...bases.events(), [name]: v });
          expectInvalid(res, name, `${name}=${JSON.stringify(v)}`);
        }
      }
      expect(await count("events_event")).to.equal(before);
    });

    it("venues: the reported geo_lng: [] is refused and stores nothing", async () => {
      const res = await post(`${NS}/venues`, { venue: "Geo type probe", geo_lat: 10, geo_lng: [] });
      expect(res.body).to.deep.include({ code: "rest_invalid_param" });
      expect(res.body.data.params).to.deep.equal({ geo_lng: "geo_lng is not of type number." });
      expect(res.body.data.details.geo_lng).to.deep.equal({ code: "rest_invalid_type", message: "geo_lng is not of type number.", data: { param: "geo_lng" } });
      expect(await (await startTestServer()).db("venues_venue").where("venue", "Geo type probe").first()).to.equal(undefined);
    });
  });

  describe("concurrent writes", () => {
    it("30 parallel creates of one tag name: one 201, the rest term_exists with its id, one row", async () => {
      const replies = await Promise.all(Array.from({ length: 30 }, () => post(`${NS}/tags`, { name: "Race tag" })));
      expect(replies.filter((r) => r.status >= 500).map((r) => r.text)).to.deep.equal([]);
      const created = replies.filter((r) => r.status === 201);
      expect(created).to.have.length(1);
      for (const r of replies.filter((x) => x.status !== 201)) {
        expect(r.status).to.equal(400);
        expect(r.body.code).to.equal("term_exists");
        expect(r.body.data.term_id).to.equal(created[0].body.id);
      }
      const rows = await (await startTestServer()).db("events_tag").whereRaw("lower(name) = 'race tag'");
      expect(rows).to.have.length(1);
    });

    it("parallel creates of one category name under one parent, and renames onto one name, stay unique", async () => {
      const replies = await Promise.all(Array.from({ length: 15 }, () => post(`${NS}/categories`, { name: "Race category", parent: 1 })));
      expect(statuses(replies)).to.deep.equal([201, ...Array(14).fill(400)]);
      const made = await Promise.all(Array.from({ length: 10 }, (_, i) => post(`${NS}/tags`, { name: `Rename race ${i}` })));
      const renamed = await Promise.all(made.map((m) => put(`${NS}/tags/${m.body.id}`, { name: "Renamed race" })));
      expect(statuses(renamed)).to.deep.equal([200, ...Array(9).fill(400)]);
      expect(renamed.filter((r) => r.status === 400).every((r) => r.body.code === "term_exists")).to.equal(true);
      expect(await (await startTestServer()).db("events_tag").whereRaw("lower(name) = 'renamed race'")).to.have.length(1);
    });

    it("parallel events naming one new tag share one created tag", async () => {
      const replies = await Promise.all(Array.from({ length: 15 }, (_, i) => post(`${NS}/events`, { title: `Inline tag race ${i}`, start_date: "2030-03-01", end_date: "2030-03-01", tags: i % 2 ? ["Inline race tag", "Other inline race tag"] : ["Other inline race tag", "Inline race tag"] })));
      expect(statuses(replies), replies.map((r) => r.text).join()).to.deep.equal(Array(15).fill(201));
      const db = (await startTestServer()).db;
      expect(await db("events_tag").whereRaw("lower(name) = 'inline race tag'")).to.have.length(1);
      expect(await db("events_tag").whereRaw("lower(name) = 'other inline race tag'")).to.have.length(1);
    });

    it("parallel events of one title all succeed with distinct slugs, as sequential ones do", async () => {
      const replies = await Promise.all(Array.from({ length: 20 }, () => post(`${NS}/events`, { title: "Slug race", start_date: "2030-03-01", end_date: "2030-03-01" })));
      expect(statuses(replies), replies.map((r) => r.text).join()).to.deep.equal(Array(20).fill(201));
      const slugs = replies.map((r) => r.body.slug).sort();
      expect(slugs).to.have.members(["slug-race", ...Array.from({ length: 19 }, (_, i) => `slug-race-${i + 2}`)]);
    });

    it("parallel venues and organizers: same data is one record (de-duplication), other data distinct slugs", async () => {
      for (const [list, key] of [["venues", "venue"], ["organizers", "organizer"]]) {
        const same = await Promise.all(Array.from({ length: 15 }, () => post(`${NS}/${list}`, { [key]: `Dedupe race ${key}` })));
        expect(statuses(same), same.map((r) => r.text).join()).to.deep.equal(Array(15).fill(201));
        expect(new Set(same.map((r) => r.body.id)).size, list).to.equal(1);
        const other = await Promise.all(Array.from({ length: 15 }, (_, i) => post(`${NS}/${list}`, { [key]: `Slug race ${key}`, description: `number ${i}` })));
        expect(statuses(other), other.map((r) => r.text).join()).to.deep.equal(Array(15).fill(201));
        expect(new Set(other.map((r) => r.body.slug)).size, list).to.equal(15);
      }
    });

    it("parallel events creating one venue and organizers inline share them", async () => {
      const replies = await Promise.all(Array.from({ length: 15 }, (_, i) => post(`${NS}/events`, {
        title: `Inline venue race ${i}`, start_date: "2030-03-01", end_date: "2030-03-01",
        venue: { venue: "Inline race hall" }, organizer: i % 2 ? [{ organizer: "Race org A" }, { organizer: "Race org B" }] : [{ organizer: "Race org B" }, { organizer: "Race org A" }],
      })));
      expect(statuses(replies), replies.map((r) => r.text).join()).to.deep.equal(Array(15).fill(201));
      expect(new Set(replies.map((r) => r.body.venue.id)).size).to.equal(1);
      const db = (await startTestServer()).db;
      expect(await db("venues_venue").where("venue", "Inline race hall")).to.have.length(1);
      expect(await db("organizers_organizer").whereIn("organizer", ["Race org A", "Race org B"])).to.have.length(2);
    });

    it("parallel events listing the same new organizers in opposite orders neither deadlock nor duplicate them", async () => {
      const names = ["Order org A", "Order org B", "Order org C"];
      const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => post(`${NS}/events`, {
        title: `Org order race ${i}`, start_date: "2030-03-01", end_date: "2030-03-01",
        organizer: (i % 2 ? names : [...names].reverse()).map((organizer) => ({ organizer })),
      })));
      expect(statuses(replies), replies.map((r) => r.text).join()).to.deep.equal(Array(16).fill(201));
      expect(await (await startTestServer()).db("organizers_organizer").whereIn("organizer", names)).to.have.length(3);
    });

    it("20 parallel permanent deletes of a post or a term: one 200, the rest the sequential 404", async () => {
      const e = await makeEvent({ title: "Delete race" });
      const gone = await Promise.all(Array.from({ length: 20 }, () => del(`${NS}/events/${e.id}?force=true`)));
      expect(statuses(gone), gone.map((r) => r.text).join()).to.deep.equal([200, ...Array(19).fill(404)]);
      expect(gone.find((r) => r.status === 200)!.body).to.include({ id: e.id, title: "Delete race" });
      expect(gone.filter((r) => r.status === 404).every((r) => r.body.code === "rest-event-not-found")).to.equal(true);
      const tag = await post(`${NS}/tags`, { name: "Delete race tag" });
      const tagGone = await Promise.all(Array.from({ length: 20 }, () => del(`${NS}/tags/${tag.body.id}`)));
      expect(statuses(tagGone)).to.deep.equal([200, ...Array(19).fill(404)]);
      expect(tagGone.filter((r) => r.status === 404).every((r) => r.body.code === "rest_term_invalid")).to.equal(true);
      const v = await post(`${NS}/venues`, { venue: "Delete race hall" });
      const bySlug = await Promise.all(Array.from({ length: 10 }, () => del(`${NS}/venues/by-slug/${v.body.slug}?force=true`)));
      expect(statuses(bySlug)).to.deep.equal([200, ...Array(9).fill(400)]);
    });

    it("20 parallel trash requests: one 200, the rest 410", async () => {
      const e = await makeEvent({ title: "Trash race" });
      const trashed = await Promise.all(Array.from({ length: 20 }, () => del(`${NS}/events/${e.id}`)));
      expect(statuses(trashed), trashed.map((r) => r.text).join()).to.deep.equal([200, ...Array(19).fill(410)]);
      expect(trashed.find((r) => r.status === 200)!.body.status).to.equal("trash");
      expect(trashed.filter((r) => r.status === 410).every((r) => r.body.code === "event-is-in-trash")).to.equal(true);
      const v = await post(`${NS}/venues`, { venue: "Trash race hall" });
      const venue = await Promise.all(Array.from({ length: 20 }, () => del(`${NS}/venues/${v.body.id}`)));
      expect(statuses(venue)).to.deep.equal([200, ...Array(19).fill(410)]);
    });

    it("updates and reads racing a delete end as after or before it, never 5xx or an empty 200", async () => {
      const e = await makeEvent({ title: "Update race" });
      const replies = await Promise.all([
        ...Array.from({ length: 5 }, () => put(`${NS}/events/${e.id}`, { title: "Update race 2" })),
        ...Array.from({ length: 5 }, () => get(`${NS}/events/${e.id}`)),
        del(`${NS}/events/${e.id}?force=true`),
        ...Array.from({ length: 5 }, () => put(`${NS}/events/${e.id}`, { title: "Update race 3" })),
        ...Array.from({ length: 5 }, () => get(`${NS}/events/${e.id}`)),
      ]);
      for (const r of replies) {
        expect([200, 404], r.text).to.include(r.status);
        if (r.status === 200) expect(r.body.id).to.equal(e.id);
      }
    });
  });
});
