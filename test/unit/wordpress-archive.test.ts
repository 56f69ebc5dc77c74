// The calendar's archive parameters planned without a database, as the engine's filter
// plans: a Knex "pg" client with no connection builds the statement and `toSQL()` shows it.
// What only the data can tell (does this venue or category exist) becomes a check, and a
// parameter refused while planning stops the plan there, keeping the checks planned before.
import { expect } from "chai";
import knexFactory, { type Knex } from "knex";
import { calendar } from "../../generated/calendar/index.js";
import { Archive, type ArchivePlan } from "../../runtime/profiles/wordpress/archive.js";
import { Catalog } from "../../runtime/profiles/wordpress/records.js";
import type { ModelDescriptor } from "../../runtime/descriptor.js";

const db: Knex = knexFactory({ client: "pg" });
const cat = new Catalog(calendar);
const archive = new Archive(db, cat, calendar.settings, "UTC");
const events = cat.byListKey("events")!;
const tags = cat.byListKey("tags")!;
const editor = { userId: "u", username: "editor", role: "editor" as const };

function where(m: ModelDescriptor, plan: ArchivePlan): { sql: string; bindings: unknown[] } {
  const qb = db(`${m.table} as t0`).select("t0.id");
  plan.filter.apply(qb);
  const { sql, bindings } = qb.toSQL().toNative();
  return { sql: sql.replace(/^select "t0"\."id" from "\w+" as "t0"\s*/, ""), bindings: [...bindings] };
}

describe("unit: WordPress archive plans", () => {
  it("an event archive filtered by venue id and category slug: clauses over sub-selects, and one check each", () => {
    const plan = archive.posts(events, { venue: "7", categories: "music,12", include: "3,4" }, editor);
    expect(plan.stopped).to.equal(undefined);
    const { sql, bindings } = where(events, plan);
    expect(sql).to.contain('"t0"."status" in ($1, $2, $3, $4, $5)');
    expect(sql).to.contain('"t0"."hide_from_listings" = $6');
    expect(sql).to.contain('"t0"."id" in ($7, $8)');
    expect(sql).to.contain('"t0"."id" in (select "source_id" from "events_event_categories" where "category_id" in (select "id" from "events_category" where ("id" in ($9) or "slug" in ($10))))');
    expect(sql).to.contain('"t0"."venue_id" in (select "id" from "venues_venue" where ("id" in ($11)))');
    expect(bindings.slice(8)).to.deep.equal([12, "music", 7]);
    expect(plan.filter.order).to.deep.equal(["categories", "venue"]);
    // Each value with the key it names (none, for a slug), so that each is checked by an index probe.
    expect(plan.filter.checks.map((c) => [c.param, c.bindings])).to.deep.equal([["categories", [["music", "12"], [null, "12"]]], ["venue", [["7"], ["7"]]]]);
    expect(plan.filter.checks[0].sql).to.contain('NOT EXISTS (SELECT 1 FROM "events_category" x WHERE x.id = u.k) AND NOT EXISTS (SELECT 1 FROM "events_category" x WHERE x."slug"::text = u.v)');
    expect(plan.ordering).to.deep.equal([{ field: "date", desc: false }, { field: "id", desc: false }]);
    expect(plan.echo).to.deep.include({ include: "3,4", categories: "music,12", venue: "7" });
  });

  it("without include, the wall-clock window and the archive's own order apply", () => {
    const plan = archive.posts(events, { start_date: "2030-01-02", end_date: "2030-01-05" }, null);
    const { sql, bindings } = where(events, plan);
    expect(sql).to.contain('"t0"."start_date" >= $3 and "t0"."end_date" <= $4');
    expect(bindings).to.deep.equal(["publish", false, "2030-01-02 00:00:00+00", "2030-01-05 23:59:59+00"]);
    expect(plan.ordering).to.deep.equal([{ field: "start_date", desc: false }, { field: "id", desc: false }]);
  });

  it("a parameter refused while planning stops the plan and keeps the checks met before it", () => {
    const plan = archive.posts(events, { venue: "7", geoloc_lat: "north", geoloc_lng: "1" }, null);
    expect(plan.stopped?.body()).to.deep.include({ code: "rest_invalid_param" });
    expect((plan.stopped?.body().data as { params: unknown }).params).to.deep.equal({ geoloc_lat: "Invalid parameter." });
    expect(plan.filter.checks.map((c) => c.param)).to.deep.equal(["venue"]);
  });

  it("a post link given by slug is refused without the database (post links take ids only)", () => {
    const plan = archive.posts(events, { venue: "grand-hall" }, null);
    expect((plan.stopped?.body().data as { params: unknown }).params).to.deep.equal({ venue: "Invalid parameter." });
    expect(plan.filter.checks).to.deep.equal([]);
  });

  it("a term archive: exclude by slug, ordered by slug descending, empty terms hidden", () => {
    const plan = archive.terms(tags, { exclude: "jazz", orderby: "slug", order: "DESC" });
    const { sql } = where(tags, plan);
    // No id among the values: Knex words the empty id list as a false comparison.
    expect(sql).to.contain('"t0"."id" not in (select "id" from "events_tag" where (1 = $1 or "slug" in ($2)))');
    expect(sql).to.contain('"t0"."id" in (select "tag_id" from "events_event_tags")');
    expect(plan.ordering).to.deep.equal([{ field: "slug", desc: true }, { field: "id", desc: true }]);
    expect(plan.filter.checks.map((c) => c.param)).to.deep.equal(["exclude"]);
  });
});
