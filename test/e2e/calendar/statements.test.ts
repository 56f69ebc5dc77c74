// The calendar reads through the engine: an archive page, with every record it embeds
// (venue, organizers, categories and tags with their counts), is one statement, and so are
// the checks of its filters (does this venue, category or parent exist), which answer from
// that same statement. Counted with Knex's query events on the server's own connection;
// anonymous requests, so no statement authenticates them.
import { expect } from "chai";
import { post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { planOf, rowsTouched, statements } from "../../support/statements.js";
import { NS, makeEvent } from "./support.js";

/** Anonymous requests: no statement authenticates them. */
const anonymous = (path: string) => statements(path, { token: null });

describe("calendar: statements per request", () => {
  let venueId: number;

  before(async () => {
    const venue = await post(`${NS}/venues`, { venue: "Statement Hall", city: "Oslo" });
    expect(venue.status).to.equal(201);
    venueId = venue.body.id;
    // One after the other: the embedded organizers come in id order, which parallel creates would leave to chance.
    const organizers = [];
    for (const organizer of ["Stmt Org A", "Stmt Org B"]) organizers.push(await post(`${NS}/organizers`, { organizer }));
    for (let i = 0; i < 3; i++) {
      await makeEvent({
        title: `Statement event ${i}`, venue: venueId, organizer: organizers.map((o) => o.body.id),
        categories: ["Statements"], tags: ["stmt-tag", "stmt-other"],
      });
    }
  });

  it("an event archive page embedding venues, organizers and terms is one read", async () => {
    const got = await anonymous(`${NS}/events?venue=${venueId}&categories=statements&search=Statement`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.events).to.have.length(3);
    const [event] = got.body.events;
    expect(event.venue).to.include({ id: venueId, venue: "Statement Hall", city: "Oslo" });
    expect(event.organizer.map((o: any) => o.organizer)).to.deep.equal(["Stmt Org A", "Stmt Org B"]);
    expect(event.categories.map((c: any) => [c.slug, c.count])).to.deep.equal([["statements", 3]]);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("a term archive with counts, an include filter and its ordering is one read", async () => {
    const got = await anonymous(`${NS}/tags?include=stmt-tag,stmt-other&orderby=slug&order=desc`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.tags.map((t: any) => [t.slug, t.count])).to.deep.equal([["stmt-tag", 3], ["stmt-other", 3]]);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("a filter naming no record is a 400 from that same single read", async () => {
    const got = await anonymous(`${NS}/events?venue=99999999&categories=no-such-category`);
    expect(got.status).to.equal(400);
    expect(got.body).to.deep.include({ code: "rest_invalid_param" });
    expect(got.body.data.params).to.deep.equal({ categories: "Invalid parameter." });
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("a parameter refused before the database is asked still lets an earlier unknown record decide", async () => {
    // `venue` comes before `geoloc_lat` in the archive's order: the unknown venue is reported.
    const got = await anonymous(`${NS}/events?venue=99999999&geoloc_lat=abc&geoloc_lng=1`);
    expect(got.status).to.equal(400);
    expect(got.body.data.params).to.deep.equal({ venue: "Invalid parameter." });
    const valid = await anonymous(`${NS}/events?venue=${venueId}&geoloc_lat=abc&geoloc_lng=1`);
    expect(valid.body.data.params).to.deep.equal({ geoloc_lat: "Invalid parameter." });
  });

  it("a filter naming many terms checks each through an index, not by reading the term table", async () => {
    const { db } = await startTestServer();
    // Enough categories that reading them all costs more than probing an index, as in a live
    // site: on a table of a page or two PostgreSQL rightly reads it whole.
    const filler = "stmt-filler-";
    await db.raw("INSERT INTO events_category (name, slug) SELECT ? || i, ? || i FROM generate_series(1, 3000) AS i", [filler, filler]);
    await db.raw("ANALYZE events_category");
    try {
      const made = [];
      for (let i = 0; i < 20; i++) {
        const category = await post(`${NS}/categories`, { name: `Stmt named ${i}` });
        expect(category.status, category.text).to.equal(201);
        made.push(category.body);
      }
      await makeEvent({ title: "Statement named event", categories: [made[3].id] });
      // Ten ids and ten slugs, as clients send them.
      const named = [...made.slice(0, 10).map((c) => String(c.id)), ...made.slice(10).map((c) => c.slug)];
      const got = await anonymous(`${NS}/events?categories=${named.join(",")}`);
      expect(got.status, JSON.stringify(got.body)).to.equal(200);
      expect(got.body.events.map((e: any) => e.title)).to.deep.equal(["Statement named event"]);
      const plan = await planOf(db, got.sql[0], got.bindings[0], true);
      const all = Number((await db("events_category").count("* as n"))[0].n);
      // The table read a few times at most, whatever the number of values; matched as text,
      // each value's check read it whole: 21 times for 20 values.
      expect(rowsTouched(plan, "events_category"), `category rows read for 20 values of ${all} categories`).to.be.at.most(4 * all);
      const unknown = await anonymous(`${NS}/events?categories=${made[0].id},007,stmt-nobody`);
      expect(unknown.status).to.equal(400);
      expect(unknown.body.data.params).to.deep.equal({ categories: "Invalid parameter." });
    } finally {
      await db("events_category").whereLike("slug", `${filler}%`).orWhereLike("name", "Stmt named %").del();
    }
  });
});
