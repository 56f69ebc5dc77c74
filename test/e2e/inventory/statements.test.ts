// A filtered list is one statement: foreign keys by slug, tree descendants, tags and regex
// validity are sub-selects and checks of the read itself, never lookups before it. Counted
// with Knex's query events on the server's own connection, the token lookup that
// authenticates a request left out. The checks' answers are 400s with the
// same bodies as before, from that same statement. Generic references (a cable's ends, a
// port's peer and connected endpoint) are sub-selects of the read as well.
import { expect } from "chai";
import { get, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { statements } from "../../support/statements.js";
import { uniq } from "./support.js";

describe("inventory e2e: statements per request", () => {
  const slug = uniq("stmt").toLowerCase();

  before(async () => {
    const region = await post("/api/dcim/regions/", { name: `${slug}-r`, slug: `${slug}-r` });
    const child = await post("/api/dcim/regions/", { name: `${slug}-c`, slug: `${slug}-c`, parent: region.body.id });
    const tag = await post("/api/extras/tags/", { name: slug, slug, color: "00ff00" });
    const site = await post("/api/dcim/sites/", { name: slug, slug, status: "active", region: child.body.id, tags: [tag.body.id] });
    const made = await post("/api/ipam/prefixes/", { prefix: "10.123.0.0/16", status: "active", site: site.body.id, tags: [tag.body.id] });
    expect(made.status).to.equal(201);
  });

  // A device list with config contexts is one read of many small sub-selects: PostgreSQL's
  // cost estimate calls for JIT compiling it, which took 15 s for seven devices.
  it("PostgreSQL connections read without JIT compiling", async function () {
    const { db, engine } = await startTestServer();
    if (engine !== "postgresql") this.skip();
    expect((await db.raw("SELECT current_setting('jit') AS jit")).rows[0].jit).to.equal("off");
  });

  it("a list filtered by slug, tag and regex is one read", async () => {
    const got = await statements(`/api/ipam/prefixes/?site=${slug}&tag=${slug}&description__nre=(x|y)`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.count).to.equal(1);
    expect(got.sql.filter((s) => s.includes('"ipam_prefix"')), got.sql.join("\n")).to.have.length(1);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("a filter on a tree's ancestor (region by slug matches sites in its child regions) is one read too", async () => {
    const got = await statements(`/api/dcim/sites/?region=${slug}-r&tag=${slug}&name__re=^stmt`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.results.map((x: { slug: string }) => x.slug)).to.deep.equal([slug]);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("unknown slugs and an invalid regex are 400s from that same single read", async () => {
    const got = await statements(`/api/ipam/prefixes/?site=no-such-site&tag=no-such-tag&description__re=(`);
    expect(got.status).to.equal(400);
    expect(got.body).to.deep.equal({
      site: ["Select a valid choice. no-such-site is not one of the available choices."],
      tag: ["Select a valid choice. no-such-tag is not one of the available choices."],
      description__re: ['"(" is not a valid regular expression.'],
    });
    expect(got.sql.filter((s) => s.includes('"ipam_prefix"')), got.sql.join("\n")).to.have.length(1);
  });

  it("a detail read with a filter carries the checks too", async () => {
    const list = await get(`/api/ipam/prefixes/?site=${slug}`);
    const got = await statements(`/api/ipam/prefixes/${list.body.results[0].id}/?site=${slug}`);
    expect(got.status).to.equal(200);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
    const refused = await statements(`/api/ipam/prefixes/${list.body.results[0].id}/?site=elsewhere`);
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({ site: ["Select a valid choice. elsewhere is not one of the available choices."] });
  });

  it("cables, interfaces with their generic peers and paths, circuits and interface connections: one read each", async () => {
    // The demo's cabled network: ends of several models, paths through panels and a circuit.
    for (const path of [
      "/api/dcim/cables/?limit=0", "/api/dcim/interfaces/?cabled=true&limit=0", "/api/circuits/circuits/?limit=0",
      "/api/dcim/interface-connections/?limit=0", "/api/dcim/power-connections/?limit=0", "/api/circuits/circuit-terminations/?limit=0",
    ]) {
      const got = await statements(path);
      expect(got.status, path).to.equal(200);
      expect(got.body.count, path).to.be.greaterThan(0);
      expect(got.sql, `${path}\n${got.sql.join("\n")}`).to.have.length(1);
    }
  });
});
