// A single write's statements go ahead of their outcome (runtime/db/pipeline.ts): on
// PostgreSQL a create waits for three round trips (its lookups, sent with BEGIN; the model
// hook's check, the row, its tags and the read of its answer; the change record, sent with
// COMMIT), and still refuses what it refused, with the same errors, leaving nothing behind.
// On the embedded engine the same statements run one after another (no socket: no writes).
import { expect } from "chai";
import { patch, post } from "../../support/http.js";
import { roundTrips } from "../../support/statements.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

const V13 = { headers: { Accept: "application/json; version=1.3" } };

describe("inventory e2e: a single write's round trips", () => {
  let pipelined = false;
  let relations: { site: string; vrf: string; tenant: string; tags: string[] };
  let octet = 0;
  const prefix = () => `10.77.${++octet}.0/24`;

  before(async () => {
    pipelined = (await startTestServer()).engine === "postgresql";
    const site = (await post("/api/dcim/sites/", { name: uniq("trip site"), status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("trip vrf"), enforce_unique: true })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: uniq("trip tenant") })).body;
    const tags = [];
    for (let n = 0; n < 2; n++) tags.push((await post("/api/extras/tags/", { name: uniq("trip tag"), content_types: ["ipam.prefix"] }, V13)).body.id);
    relations = { site: site.id, vrf: vrf.id, tenant: tenant.id, tags };
  });

  it("a create with relations and tags: its lookups with BEGIN, then its writes with its answer, then its change record with COMMIT", async () => {
    // The first create of a shape names its statements; the second is the one counted.
    await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations });
    const made = await roundTrips(() => post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations }));
    expect(made.reply.status, made.reply.text).to.equal(201);
    expect(made.reply.body.tags.map((t: { id: string }) => t.id).sort()).to.deep.equal([...relations.tags].sort());
    expect(await rows("extras_objectchange", { changed_object_id: made.reply.body.id, action: "create" })).to.equal(1);
    expect(made.sql[0]).to.equal("BEGIN;");
    expect(made.sql.at(-1)).to.equal("COMMIT;");
    if (!pipelined) return expect(made.writes).to.deep.equal([]);
    const trips = made.writes.map((batch) => batch.map((sql) => sql.slice(0, 40)));
    expect(trips, made.writes.join("\n\n")).to.have.length(3);
    expect(made.writes[0][0]).to.equal("BEGIN;");
    expect(made.writes[0][1]).to.match(/^SELECT 0 AS g/);
    const second = made.writes[1].join("\n");
    expect(second).to.match(/^insert into "ipam_prefix"/m).and.match(/^insert into "extras_tag_assignment"/m).and.match(/^select t0\."id" AS "id"/m);
    expect(made.writes[2]).to.have.length(2);
    expect(made.writes[2][0]).to.match(/^INSERT INTO "extras_objectchange"/);
    expect(made.writes[2][1]).to.equal("COMMIT;");
  });

  it("a refusal found by a check sent with the row is the hook's, and nothing is left of the write", async () => {
    const taken = prefix();
    expect((await post("/api/ipam/prefixes/", { prefix: taken, status: "active", ...relations })).status).to.equal(201);
    const before = await rows("extras_tag_assignment");
    const changes = await rows("extras_objectchange");
    const twin = await roundTrips(() => post("/api/ipam/prefixes/", { prefix: taken, status: "active", ...relations }));
    expect(twin.reply.status).to.equal(400);
    expect(twin.reply.body.prefix[0]).to.match(new RegExp(`^Duplicate prefix found in VRF .*: ${taken.replace(/\./g, "\\.")}$`));
    expect([await rows("ipam_prefix", { prefix: taken }), await rows("extras_tag_assignment"), await rows("extras_objectchange")]).to.deep.equal([1, before, changes]);
    if (pipelined) expect(twin.writes.length, twin.writes.join("\n\n")).to.be.at.most(3);
  });

  it("a row the database refuses when its statements went ahead is refused as before: a duplicate name, its tags not kept", async () => {
    const name = uniq("trip twin");
    expect((await post("/api/dcim/sites/", { name, status: "active" })).status).to.equal(201);
    const tags = await rows("extras_tag_assignment");
    const again = await post("/api/dcim/sites/", { name, status: "active", tags: [] });
    expect(again.status, again.text).to.equal(400);
    expect(again.body).to.deep.equal({ name: ["site with this name already exists."] });
    const site = (await post("/api/dcim/sites/", { name: uniq("trip other"), status: "active" })).body;
    const renamed = await patch(`/api/dcim/sites/${site.id}/`, { name, description: "renamed" });
    expect(renamed.status, renamed.text).to.equal(400);
    expect(renamed.body).to.deep.equal({ name: ["site with this name already exists."] });
    expect(await rows("dcim_site", { name })).to.equal(1);
    expect(await rows("extras_tag_assignment")).to.equal(tags);
  });
});
