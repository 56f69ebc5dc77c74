// Bulk create, update and delete on list URLs, and their all-or-none guarantee: one bad
// element fails the whole request and leaves the database exactly as it was.
import { expect } from "chai";
import { call, get, post, put, patch, del } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { sentStatements } from "../../support/statements.js";
import { row, rows, uniq, MISSING_ID } from "./support.js";

/** A campus at `site` and a floor in it, of types that hold prefixes, and a hut of the type "<name> Shed", which does not. */
async function locations(site: string): Promise<Array<{ id: string; name: string; location_type: { name: string } }>> {
  const name = uniq("BulkLoc");
  const campusType = (await post("/api/dcim/location-types/", { name: `${name} Campus`, content_types: ["ipam.prefix"] })).body;
  const floorType = (await post("/api/dcim/location-types/", { name: `${name} Floor`, parent: campusType.id, content_types: ["ipam.prefix"] })).body;
  const shedType = (await post("/api/dcim/location-types/", { name: `${name} Shed`, content_types: ["dcim.rack"] })).body;
  const campus = (await post("/api/dcim/locations/", { name: `${name} North`, location_type: campusType.id, site, status: "active" })).body;
  const floor = (await post("/api/dcim/locations/", { name: `${name} F1`, location_type: floorType.id, parent: campus.id, status: "active" })).body;
  const shed = (await post("/api/dcim/locations/", { name: `${name} Hut`, location_type: shedType.id, site, status: "active" })).body;
  return [campus, floor, shed];
}

async function tags(n: number): Promise<Array<{ id: string; name: string; slug: string }>> {
  const res = await post("/api/extras/tags/", Array.from({ length: n }, () => ({ name: uniq("BulkTag") })));
  expect(res.status).to.equal(201);
  return res.body;
}

describe("inventory e2e: bulk operations", () => {
  it("bulk create: array in → array out, 201, input order, no Location", async () => {
    const names = [uniq("BT"), uniq("BT"), uniq("BT")];
    const res = await post("/api/extras/tags/", names.map((name) => ({ name })));
    expect(res.status).to.equal(201);
    expect(res.headers.get("location")).to.equal(null);
    expect(res.body.map((t: { name: string }) => t.name)).to.deep.equal(names);
    for (const t of res.body) expect(await rows("extras_tag", { id: t.id })).to.equal(1);
  });

  it("bulk create of an empty array → 201 [], one by one or as a set", async () => {
    for (const path of ["/api/extras/tags/", "/api/ipam/vrfs/"]) {
      const res = await post(path, []);
      expect(res.status, path).to.equal(201);
      expect(res.body).to.deep.equal([]);
    }
  });

  it("bulk create with one bad element → 400 per-item errors, nothing created", async () => {
    const before = await rows("extras_tag");
    const good = uniq("BT");
    const res = await post("/api/extras/tags/", [{ name: good }, { color: "zz" }, { name: uniq("BT") }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.have.length(3);
    expect(res.body[0]).to.deep.equal({});
    expect(res.body[1].name).to.deep.equal(["This field is required."]);
    expect(res.body[2]).to.deep.equal({});
    expect(await rows("extras_tag")).to.equal(before);
    expect(await rows("extras_tag", { name: good })).to.equal(0);
  });

  it("bulk create colliding with itself (unique) → 400, nothing created", async () => {
    const name = uniq("BT");
    const before = await rows("extras_tag");
    const res = await post("/api/extras/tags/", [{ name }, { name }]);
    expect(res.status).to.equal(400);
    expect(await rows("extras_tag")).to.equal(before);
  });

  it("bulk create of prefixes is one set: references, the hook's checks, the insert and the tags one statement each", async () => {
    const { db } = await startTestServer();
    const site = (await post("/api/dcim/sites/", { name: uniq("bulk site"), status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("bulk vrf") })).body;
    const [t1, t2] = await tags(2);
    const [campus, floor] = await locations(site.id);
    const octet = Math.floor(Math.random() * 200) + 20;
    const body = Array.from({ length: 20 }, (_, i) => ({
      prefix: `10.${octet}.${i}.0/24`, status: "active", site: site.id, vrf: vrf.id, tags: [t1.id, t2.id], location: [campus.id, floor.id, null][i % 3],
    }));
    const sql: string[] = [];
    const listen = (q: { sql: string }) => sql.push(q.sql);
    db.on("query", listen);
    let res;
    try {
      res = await post("/api/ipam/prefixes/", body);
    } finally {
      db.removeListener("query", listen);
    }
    expect(res.status, res.text).to.equal(201);
    expect(res.body.map((p: { tags: Array<{ id: string }> }) => p.tags.map((t) => t.id).sort())).to.deep.equal(body.map(() => [t1.id, t2.id].sort()));
    expect(await rows("ipam_prefix", { vrf_id: vrf.id })).to.equal(20);
    const checks = sql.filter((s) => s.includes("UNION ALL") && s.includes('"dcim_site"'));
    expect(checks, sql.join("\n")).to.have.length(1);
    expect(sql.filter((s) => /^insert into "ipam_prefix"/i.test(s))).to.have.length(1);
    expect(sql.filter((s) => /^insert into "extras_tag_assignment"/.test(s))).to.have.length(1);
    // The tags' scope is checked again inside that insert, after their lock: not a count of its own.
    expect(sql.filter((s) => /^insert into "extras_tag_assignment"/.test(s))[0]).to.include('"extras_tag_content_types"');
    expect(sql.filter((s) => /count\(\*\)/.test(s) && s.includes('from "extras_tag"')), "a scope count of its own").to.deep.equal([]);
    expect(sql.filter((s) => s.includes("network(e.prefix::inet)")), "the hook's check").to.have.length(1);
    expect(sql.filter((s) => s.includes("WITH RECURSIVE up")), "the hook's location check").to.have.length(1);
    expect(sql.length, sql.join("\n")).to.be.at.most(20);
  });

  it("bulk create of a model without row hooks is one set: one insert, one statement for its tags and one per link field, whatever its size", async () => {
    const { db } = await startTestServer();
    const [t1, t2] = await tags(2);
    const targets = (await post("/api/ipam/route-targets/", [{ name: `${uniq("rt")}:1` }, { name: `${uniq("rt")}:2` }])).body;
    const create = async (n: number) => {
      const body = Array.from({ length: n }, (_, i) => ({
        name: uniq("set vrf"), rd: uniq("rd"), tags: i % 2 ? [t1.id, t2.id] : [t2.id], import_targets: targets.map((t: { id: string }) => t.id), export_targets: i % 3 ? [] : [targets[0].id],
      }));
      const sql: string[] = [];
      // Whether the token and the permissions are read again depends on the time since they
      // were last read (TOKEN_TRUST_MS, PERMISSION_TRUST_MS): they are not the write's.
      const listen = (q: { sql: string }) => { if (!/"users_(token|objectpermission)"/.test(q.sql)) sql.push(q.sql); };
      db.on("query", listen);
      try {
        const res = await post("/api/ipam/vrfs/", body);
        expect(res.status, res.text).to.equal(201);
        return { body, res, sql };
      } finally {
        db.removeListener("query", listen);
      }
    };
    const few = await create(3);
    const many = await create(40);
    expect(many.sql.filter((s) => /^insert into "ipam_vrf"/i.test(s))).to.have.length(1);
    expect(many.sql.filter((s) => /^insert into "extras_tag_assignment"/.test(s))).to.have.length(1);
    expect(many.sql.length, many.sql.join("\n")).to.equal(few.sql.length);
    expect(many.res.body.map((v: { name: string }) => v.name)).to.deep.equal(many.body.map((v) => v.name));
    for (const [n, vrf] of (many.res.body as Array<{ id: string; tags: Array<{ id: string }>; import_targets: Array<{ id: string }>; export_targets: Array<{ id: string }> }>).entries()) {
      const asked = many.body[n];
      expect(vrf.tags.map((t) => t.id).sort()).to.deep.equal([...asked.tags].sort());
      expect(await rows("extras_tag_assignment", { object_type: "ipam.vrf", object_id: vrf.id })).to.equal(asked.tags.length);
      expect(vrf.import_targets.map((t) => t.id).sort()).to.deep.equal([...asked.import_targets].sort());
      expect(vrf.export_targets.map((t) => t.id)).to.deep.equal(asked.export_targets);
    }
  });

  it("bulk create of a model with made slugs is one set: each slug free of the stored ones and of the set's, whatever its size", async () => {
    const { db } = await startTestServer();
    const name = uniq("Net");
    const base = name.toLowerCase();
    const providers = (await post("/api/circuits/providers/", Array.from({ length: 34 }, () => ({ name: uniq("set provider") })))).body as Array<{ id: string }>;
    expect((await post("/api/circuits/provider-networks/", { name, provider: providers[0].id })).body.slug).to.equal(base);
    const create = async (body: Array<Record<string, unknown>>) => {
      const sql: string[] = [];
      const listen = (q: { sql: string }) => { if (!/"users_(token|objectpermission)"/.test(q.sql)) sql.push(q.sql); };
      db.on("query", listen);
      try {
        const res = await post("/api/circuits/provider-networks/", body);
        expect(res.status, res.text).to.equal(201);
        return { slugs: (res.body as Array<{ slug: string }>).map((n) => n.slug), sql };
      } finally {
        db.removeListener("query", listen);
      }
    };
    // A slug given in the set is taken for the made ones, wherever it stands in it.
    const few = await create([{ name, provider: providers[1].id }, { name, provider: providers[2].id, slug: `${base}-3` }, { name, provider: providers[3].id }]);
    expect(few.slugs).to.deep.equal([`${base}-2`, `${base}-3`, `${base}-4`]);
    const many = await create(providers.slice(4).map((p) => ({ name, provider: p.id })));
    expect(many.slugs).to.deep.equal(Array.from({ length: 30 }, (_, i) => `${base}-${i + 5}`));
    expect(many.sql.filter((s) => /^insert into "circuits_providernetwork"/i.test(s))).to.have.length(1);
    expect(many.sql.length, many.sql.join("\n")).to.equal(few.sql.length);
  });

  it("a set the database refuses (a unique value twice) names the element, as one by one would; nothing is created", async () => {
    const before = await rows("ipam_vrf");
    const rd = uniq("rd");
    const res = await post("/api/ipam/vrfs/", [{ name: uniq("v") }, { name: uniq("v"), rd }, { name: uniq("v") }, { name: uniq("v"), rd }]);
    expect(res.status, res.text).to.equal(400);
    expect(res.body).to.deep.equal([{}, {}, {}, { rd: ["VRF with this Route distinguisher already exists."] }]);
    expect(await rows("ipam_vrf")).to.equal(before);
  });

  it("a set of prefixes checked at once still finds a duplicate within the set and one already stored, naming the element", async () => {
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("set vrf"), enforce_unique: true })).body;
    const free = (await post("/api/ipam/vrfs/", { name: uniq("free vrf"), enforce_unique: false })).body;
    const octet = Math.floor(Math.random() * 200) + 20;
    const p = (n: number, v = vrf.id) => ({ prefix: `10.${octet}.${n}.0/24`, status: "active", vrf: v });
    expect((await post("/api/ipam/prefixes/", p(9))).status).to.equal(201);
    const before = await rows("ipam_prefix");
    const within = await post("/api/ipam/prefixes/", [p(1), p(2), p(1, free.id), p(1, free.id), p(1)]);
    expect([within.status, within.body]).to.deep.equal([400, [{}, {}, {}, {}, { prefix: [`Duplicate prefix found in VRF ${vrf.name}: 10.${octet}.1.0/24`] }]]);
    const stored = await post("/api/ipam/prefixes/", [p(3), p(9)]);
    expect([stored.status, stored.body]).to.deep.equal([400, [{}, { prefix: [`Duplicate prefix found in VRF ${vrf.name}: 10.${octet}.9.0/24`] }]]);
    expect(await rows("ipam_prefix")).to.equal(before);
    // Where the VRF does not enforce unique space, the same prefix twice is taken.
    expect((await post("/api/ipam/prefixes/", [p(5, free.id), p(5, free.id)])).status).to.equal(201);
  });

  it("a set of prefixes has its locations checked at once, and a refused one is named by its element", async () => {
    const site = (await post("/api/dcim/sites/", { name: uniq("set site"), status: "active" })).body;
    const other = (await post("/api/dcim/sites/", { name: uniq("set other"), status: "active" })).body;
    const [campus, floor, shed] = await locations(site.id);
    const octet = Math.floor(Math.random() * 200) + 20;
    const p = (n: number, location: string, at = site.id) => ({ prefix: `10.${octet}.${n}.0/24`, status: "active", site: at, location });
    const before = await rows("ipam_prefix");
    const res = await post("/api/ipam/prefixes/", [p(1, campus.id), p(2, floor.id, other.id), p(3, floor.id), p(4, shed.id)]);
    expect([res.status, res.body]).to.deep.equal([400, [
      {},
      { location: [`Location "${floor.name}" does not belong to site "${other.name}".`] },
      {},
      { location: [`Prefixes may not associate to locations of type "${shed.location_type.name}".`] },
    ]]);
    expect(await rows("ipam_prefix")).to.equal(before);
    expect((await post("/api/ipam/prefixes/", [p(1, campus.id), p(3, floor.id)])).status).to.equal(201);
  });

  it("bulk create errors name their elements, whether found reading them or saving them; nothing is created", async () => {
    const site = (await post("/api/dcim/sites/", { name: uniq("bulk site"), status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("bulk vrf"), enforce_unique: true })).body;
    const [t1] = await tags(1);
    const good = (n: number) => ({ prefix: `10.250.${n}.0/24`, status: "active", site: site.id, vrf: vrf.id, tags: [t1.id] });
    const res = await post("/api/ipam/prefixes/", [
      good(1), { ...good(2), site: MISSING_ID }, good(3), { ...good(4), tags: [t1.id, MISSING_ID] }, good(1), good(5),
    ]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal([
      {},
      { site: [`Related object not found using the provided ID: ${MISSING_ID}`] },
      {},
      { tags: [{}, [`Related object not found using the provided ID: ${MISSING_ID}`]] },
      { prefix: [`Duplicate prefix found in VRF ${vrf.name}: 10.250.1.0/24`] },
      {},
    ]);
    expect(await rows("ipam_prefix", { vrf_id: vrf.id })).to.equal(0);
  });

  it("bulk PATCH: per-element changes, bare array reply in the body's order", async () => {
    const [a, b] = await tags(2);
    const res = await patch("/api/extras/tags/", [{ id: b.id, color: "00ff00" }, { id: a.id, description: "first" }]);
    expect(res.status).to.equal(200);
    expect(res.body.map((t: { id: string }) => t.id)).to.deep.equal([b.id, a.id]);
    expect((await row("extras_tag", a.id))?.description).to.equal("first");
    expect((await row("extras_tag", b.id))).to.include({ color: "00ff00", description: "" });
  });

  it("bulk PATCH naming an unknown id → 400 naming that element, nothing changed (all or none, unlike Nautobot)", async () => {
    const [a, b] = await tags(2);
    const res = await patch("/api/extras/tags/", [{ id: a.id, description: "first" }, { id: b.id, color: "00ff00" }, { id: MISSING_ID, description: "ghost" }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal([{}, {}, { id: ["Object with this ID does not exist."] }]);
    expect((await row("extras_tag", a.id))?.description).to.equal("");
    expect((await row("extras_tag", b.id))?.color).to.not.equal("00ff00");
  });

  it("bulk PUT needs required fields per element; a failure rolls back all", async () => {
    const [a, b] = await tags(2);
    const bad = await put("/api/extras/tags/", [{ id: a.id, name: `${a.name}-new` }, { id: b.id, description: "no name" }]);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ name: ["This field is required."] });
    expect((await row("extras_tag", a.id))?.name).to.equal(a.name);
    expect((await row("extras_tag", b.id))?.description).to.equal("");
    const ok = await put("/api/extras/tags/", [{ id: a.id, name: `${a.name}-new` }, { id: b.id, name: `${b.name}-new` }]);
    expect(ok.status).to.equal(200);
    expect((await row("extras_tag", a.id))?.name).to.equal(`${a.name}-new`);
  });

  it("bulk PATCH with one invalid element → 400, nothing changed", async () => {
    const [a, b] = await tags(2);
    const res = await patch("/api/extras/tags/", [{ id: a.id, description: "changed" }, { id: b.id, color: "not-a-colour" }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.have.property("color");
    expect((await row("extras_tag", a.id))?.description).to.equal("");
  });

  it("bulk PATCH failing in the database (unique) on a later element rolls back the earlier ones", async () => {
    const [a, b, c] = await tags(3);
    const res = await patch("/api/extras/tags/", [{ id: a.id, description: "changed" }, { id: b.id, name: c.name }, { id: c.id, description: "changed" }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ name: ["tag with this name already exists."] });
    for (const t of [a, b, c]) expect(await row("extras_tag", t.id)).to.include({ name: t.name, description: "" });
  });

  it("bulk writes also need application/json", async () => {
    const [a] = await tags(1);
    const res = await call("DELETE", "/api/extras/tags/", { body: JSON.stringify([{ id: a.id }]), raw: true, headers: { "Content-Type": "text/plain" } });
    expect(res.status).to.equal(415);
    expect(await rows("extras_tag", { id: a.id })).to.equal(1);
    const upd = await call("PATCH", "/api/extras/tags/", { body: JSON.stringify([{ id: a.id, description: "x" }]), raw: true, headers: { "Content-Type": "text/plain" } });
    expect(upd.status).to.equal(415);
    expect((await row("extras_tag", a.id))?.description).to.equal("");
  });

  it("bulk update/delete element without a valid id → 400 list of per-item errors", async () => {
    const [a] = await tags(1);
    const res = await patch("/api/extras/tags/", [{ id: a.id, description: "x" }, { description: "no id" }, { id: "nope" }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal([{}, { id: ["This field is required."] }, { id: ["Must be a valid UUID."] }]);
    expect((await row("extras_tag", a.id))?.description).to.equal("");
  });

  it("bulk update/delete with a non-list body → 400 non_field_errors", async () => {
    const res = await patch("/api/extras/tags/", { id: MISSING_ID });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ non_field_errors: ['Expected a list of items but got type "dict".'] });
    const res2 = await del("/api/extras/tags/", { id: MISSING_ID });
    expect(res2.status).to.equal(400);
  });

  it("bulk DELETE [{id}] → 204, all gone; an unknown id refuses the whole request", async () => {
    const [a, b] = await tags(2);
    const refused = await del("/api/extras/tags/", [{ id: a.id }, { id: b.id }, { id: MISSING_ID }]);
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal([{}, {}, { id: ["Object with this ID does not exist."] }]);
    expect(await rows("extras_tag", { id: a.id })).to.equal(1);
    const res = await del("/api/extras/tags/", [{ id: a.id }, { id: b.id }]);
    expect(res.status).to.equal(204);
    expect(res.text).to.equal("");
    expect(await rows("extras_tag", { id: a.id })).to.equal(0);
    expect(await rows("extras_tag", { id: b.id })).to.equal(0);
  });

  it("bulk DELETE where one object is protected → 409, nothing deleted", async () => {
    const free = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
    const held = await post("/api/dcim/sites/", { name: uniq("Site"), status: "active" });
    const p = await post("/api/ipam/prefixes/", { prefix: "10.243.0.0/16", status: "active", site: held.body.id });
    const res = await del("/api/dcim/sites/", [{ id: free.body.id }, { id: held.body.id }]);
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.equal(`Unable to delete object. 1 dependent objects were found: 10.243.0.0/16 (${p.body.id})`);
    expect(await rows("dcim_site", { id: free.body.id })).to.equal(1);
    expect(await rows("dcim_site", { id: held.body.id })).to.equal(1);
  });
});

/** The statements `request` makes, those that authenticate it left out (read again or not by how long ago they were last read). */
async function counted<T>(request: () => Promise<T>): Promise<{ reply: T; sql: string[] }> {
  const { db } = await startTestServer();
  const sql: string[] = [];
  const listen = (q: { sql: string }) => { if (!/"users_(token|objectpermission)"/.test(q.sql)) sql.push(q.sql); };
  db.on("query", listen);
  try {
    return { reply: await request(), sql };
  } finally {
    db.removeListener("query", listen);
  }
}

/** `object` with its links relative to the API root, as a change record keeps them: the server's `url` taken out. */
const relative = (object: unknown, url: string): unknown => JSON.parse(JSON.stringify(object).replaceAll(url, ""));

/** The change records of `ids` with `action`. */
async function recorded(ids: string[], action: string): Promise<number> {
  const { db } = await startTestServer();
  const [{ n }] = await db("extras_objectchange").whereIn("changed_object_id", ids).where("action", action).count({ n: "*" });
  return Number(n);
}

describe("inventory e2e: bulk writes are set-based", () => {
  let relations: { site: string; vrf: string; other: string; tenant: string; tags: string[] };
  let octet = 0;
  const prefixes = (n: number) => {
    octet += 1;
    return Array.from({ length: n }, (_, i) => ({
      prefix: `10.${200 + (octet % 50)}.${Math.floor(i / 250)}.${i % 250}/32`, status: "active", site: relations.site, vrf: relations.vrf, tenant: relations.tenant, tags: relations.tags,
    }));
  };

  before(async () => {
    const site = (await post("/api/dcim/sites/", { name: uniq("set site"), status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("set vrf") })).body;
    const other = (await post("/api/ipam/vrfs/", { name: uniq("set vrf") })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: uniq("set tenant") })).body;
    relations = { site: site.id, vrf: vrf.id, other: other.id, tenant: tenant.id, tags: (await tags(2)).map((t) => t.id) };
  });

  it("a bulk create of prefixes with tags and relations costs as many statements for 1,000 as for 10", async () => {
    const few = await counted(() => post("/api/ipam/prefixes/", prefixes(10)));
    const many = await counted(() => post("/api/ipam/prefixes/", prefixes(1000)));
    expect(many.reply.status, many.reply.text.slice(0, 500)).to.equal(201);
    expect(many.sql.length, many.sql.join("\n")).to.equal(few.sql.length);
    const ids = many.reply.body.map((p: { id: string }) => p.id);
    expect(await recorded(ids, "create")).to.equal(1000);
  });

  it("a bulk create looks up each reference its elements name once, by attributes too, and gives each element naming a missing one its error", async () => {
    const { db } = await startTestServer();
    const [site] = await db("dcim_site").where("id", relations.site).select("name");
    const [tag] = await db("extras_tag").where("id", relations.tags[0]).select("slug");
    const named = (n: number) => prefixes(n).map((p) => ({ ...p, site: { name: site.name }, status: "Active", tags: [{ slug: tag.slug }, relations.tags[1]] }));
    const few = await counted(() => post("/api/ipam/prefixes/", named(3)));
    const many = await counted(() => post("/api/ipam/prefixes/", named(30)));
    expect([few.reply.status, many.reply.status], many.reply.text.slice(0, 500)).to.deep.equal([201, 201]);
    // A lookup per element would add 27 for each reference named by attributes.
    expect(many.sql.length, many.sql.join("\n")).to.equal(few.sql.length);
    expect(new Set(many.reply.body.map((p: { site: { id: string } }) => p.site.id))).to.deep.equal(new Set([relations.site]));
    expect(many.reply.body.every((p: { status: { value: string }; tags: Array<{ id: string }> }) =>
      p.status.value === "active" && p.tags.map((t) => t.id).sort().join() === [...relations.tags].sort().join())).to.equal(true);

    const [a, b, c] = prefixes(3);
    const before = await rows("ipam_prefix", { vrf_id: relations.vrf });
    const refused = await post("/api/ipam/prefixes/", [{ ...a, site: MISSING_ID }, b, { ...c, site: MISSING_ID, status: "nonesuch" }]);
    expect(refused.status).to.equal(400);
    const missing = [`Related object not found using the provided ID: ${MISSING_ID}`];
    expect(refused.body).to.deep.equal([{ site: missing }, {}, { site: missing, status: ["Object with slug=nonesuch does not exist."] }]);
    expect(await rows("ipam_prefix", { vrf_id: relations.vrf })).to.equal(before);
  });

  it("a bulk create's and a bulk PATCH's answers, written while they commit, are the compact JSON Express writes, and what was saved", async () => {
    const created = await post("/api/ipam/prefixes/", prefixes(4));
    expect(created.status, created.text.slice(0, 500)).to.equal(201);
    expect(created.text).to.equal(JSON.stringify(created.body));
    expect(created.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(Number(created.headers.get("content-length"))).to.equal(Buffer.byteLength(created.text));
    const ids = created.body.map((p: { id: string }) => p.id);
    const changed = await patch("/api/ipam/prefixes/", ids.map((id: string, i: number) => ({ id, description: `ahead ${i}` })));
    expect(changed.status, changed.text.slice(0, 500)).to.equal(200);
    expect(changed.text).to.equal(JSON.stringify(changed.body));
    for (const [i, object] of (changed.body as Array<{ id: string; description: string }>).entries()) {
      expect(object.description).to.equal(`ahead ${i}`);
      // A write answers with the opt-in fields too.
      expect((await get(`/api/ipam/prefixes/${object.id}/?include=computed_fields,relationships`)).body).to.deep.equal(object);
    }
  });

  it("a bulk create and a bulk PATCH send the database as many statements for 30 elements as for 3, a webhook and change records included", async () => {
    const hook = await post("/api/extras/webhooks/", {
      name: uniq("set hook"), content_types: ["ipam.prefix"], type_create: true, type_update: true, payload_url: "http://127.0.0.1:9/set-hook",
    });
    expect(hook.status, hook.text).to.equal(201);
    const writeOf = async (n: number) => {
      const created = await sentStatements(() => post("/api/ipam/prefixes/", prefixes(n)));
      expect(created.reply.status, created.reply.text.slice(0, 500)).to.equal(201);
      const ids = created.reply.body.map((p: { id: string }) => p.id);
      const [first] = await tags(1);
      const updated = await sentStatements(() => patch("/api/ipam/prefixes/", ids.map((id: string, i: number) => ({ id, description: `sent ${i}`, tags: [first.id] }))));
      expect(updated.reply.status, updated.reply.text.slice(0, 500)).to.equal(200);
      expect([await recorded(ids, "create"), await recorded(ids, "update")]).to.deep.equal([n, n]);
      const { db } = await startTestServer();
      // Nothing listens there: the deliveries are only looked at on the queue, then taken off it.
      const deliveries = () => db("armature_tasks").where("kind", "webhook").whereRaw("payload::text LIKE ANY (?)", [ids.map((id: string) => `%${id}%`)])
        .whereRaw("payload::text LIKE ?", ["%127.0.0.1:9/set-hook%"]);
      expect(Number((await deliveries().count({ n: "*" }))[0].n), "a delivery of each creation and update").to.equal(2 * n);
      await deliveries().del();
      return { created: created.sql, updated: updated.sql };
    };
    try {
      const few = await writeOf(3);
      const many = await writeOf(30);
      // Equal counts: any statement made per element would add 27.
      expect(many.created.length, many.created.join("\n")).to.equal(few.created.length);
      expect(many.updated.length, many.updated.join("\n")).to.equal(few.updated.length);
    } finally {
      await del(`/api/extras/webhooks/${hook.body.id}/`);
    }
  });

  it("a bulk create's answer is PostgreSQL's text and its change records are made from it in the same statement, in the latest version and in an older one: each object rendered once", async () => {
    // Each object's text is made once, for the answer and for its record: the record takes the
    // answer's fields but the opt-in ones, and writes its own of those the version shows
    // otherwise (custom fields keyed by name in 1.2, by slug from 1.4).
    const columnReads = (sql: string[]) => sql.filter((s) => /^select t0\."id" AS "id"/.test(s) && s.includes('from "ipam_prefix" as "t0"')).length;
    const textReads = (sql: string[]) => sql.filter((s) => /^select (replace\()+concat\('\{"id":'/.test(s) && s.includes('inner join "ipam_prefix" as "t0"')).length;
    const answeredAndRecorded = (sql: string[]) => sql.filter((s) => /^WITH armature_answer AS MATERIALIZED \(SELECT t0\.armature_n AS n, t0\.id, concat\('\{"id":'/.test(s) &&
      s.includes('FROM "ipam_prefix" k WHERE k.id = w.id') && s.includes('INSERT INTO "extras_objectchange"')).length;
    const recordsApart = (sql: string[]) => sql.filter((s) => s.startsWith('INSERT INTO "extras_objectchange"')).length;
    const latest = { headers: { Accept: "application/json; version=1.5" } };
    const label = uniq("Bulk Note");
    const field = await post("/api/extras/custom-fields/", { name: label, type: "text", content_types: ["ipam.prefix"], default: "kept" },
      { headers: { Accept: "application/json; version=1.3" } });
    expect(field.status, field.text).to.equal(201);
    const { db, url } = await startTestServer();
    try {
      const older = await counted(() => post("/api/ipam/prefixes/", prefixes(5), { headers: { Accept: "application/json; version=1.2" } }));
      const newest = await counted(() => post("/api/ipam/prefixes/", prefixes(5), latest));
      expect([older.reply.status, newest.reply.status]).to.deep.equal([201, 201]);
      for (const { sql } of [older, newest]) {
        expect([columnReads(sql), textReads(sql), answeredAndRecorded(sql), recordsApart(sql)], sql.join("\n")).to.deep.equal([0, 0, 1, 0]);
      }
      const [one] = older.reply.body as Array<{ custom_fields: Record<string, unknown> }>;
      expect(one.custom_fields[label], "1.2 keys custom fields by name").to.equal("kept");
      for (const object of older.reply.body as Array<Record<string, unknown>>) {
        const [change] = await db("extras_objectchange").where({ changed_object_id: object.id, action: "create" });
        const shown = (await get(`/api/ipam/prefixes/${object.id}/`, latest)).body;
        expect(Object.entries(shown.custom_fields), "the record keys them by slug, as the latest version").to.deep.include([field.body.slug, "kept"]);
        expect(field.body.slug).to.not.equal(label);
        expect(change.object_data_v2).to.deep.equal(relative(shown, url));
      }
      for (const object of newest.reply.body as Array<Record<string, unknown>>) {
        const [change] = await db("extras_objectchange").where({ changed_object_id: object.id, action: "create" });
        // The change record shows the object answered, with relative links, as a request-less
        // serializer does: without the opt-in fields a write's answer shows.
        const { computed_fields: _c, relationships: _r, ...requestLess } = object;
        expect(object).to.include.keys("computed_fields", "relationships");
        expect(change.object_data_v2).to.deep.equal(relative(requestLess, url));
      }
    } finally {
      expect((await del(`/api/extras/custom-fields/${field.body.id}/`)).status).to.equal(204);
    }
  });

  it("a bulk PATCH in an older version records each change from its answer's objects, in the latest version", async () => {
    const made = (await post("/api/ipam/prefixes/", prefixes(3))).body as Array<{ id: string }>;
    const body = made.map((p, i) => ({ id: p.id, description: `along ${i}` }));
    const { reply, sql } = await counted(() => patch("/api/ipam/prefixes/", body, { headers: { Accept: "application/json; version=1.2" } }));
    expect(reply.status, reply.text).to.equal(200);
    const along = sql.filter((s) => s.startsWith("WITH armature_answer AS MATERIALIZED") && s.includes('INSERT INTO "extras_objectchange"'));
    expect([along.length, sql.filter((s) => s.startsWith('INSERT INTO "extras_objectchange"')).length], sql.join("\n")).to.deep.equal([1, 0]);
    const { db, url } = await startTestServer();
    for (const p of made) {
      const [change] = await db("extras_objectchange").where({ changed_object_id: p.id, action: "update" });
      const shown = (await get(`/api/ipam/prefixes/${p.id}/`, { headers: { Accept: "application/json; version=1.5" } })).body;
      expect(change.object_data_v2).to.deep.equal(relative(shown, url));
      expect(change.object_data).to.include({ description: shown.description, prefix: shown.prefix, status: "active" });
    }
  });

  it("a bulk create whose answer is rendered in JavaScript (a computed field defined) reads its objects once for it, and records them in SQL, without the computed field", async () => {
    const slug = `cf_${uniq("set").replace(/\W/g, "_")}`.toLowerCase();
    const field = await post("/api/extras/computed-fields/", { content_type: "ipam.rir", slug, label: slug, template: "{{ obj.name | upper }}" });
    expect(field.status, field.text).to.equal(201);
    try {
      const names = [uniq("set rir"), uniq("set rir")];
      const made = await counted(() => post("/api/ipam/rirs/", names.map((name) => ({ name })), { headers: { Accept: "application/json; version=1.2" } }));
      expect(made.reply.status, made.reply.text).to.equal(201);
      const reads = made.sql.filter((s) => /^select t0\."id" AS "id"/.test(s) && s.includes('from "ipam_rir" as "t0"'));
      expect(reads, made.sql.join("\n")).to.have.length(1);
      expect(made.sql.filter((s) => s.includes("jsonb_populate_recordset")), made.sql.join("\n")).to.deep.equal([]);
      // Recorded once, in SQL: by the statement the answer was first read with, before the
      // computed field was known to be defined and the answer read again in JavaScript.
      expect(made.sql.filter((s) => s.includes('INSERT INTO "extras_objectchange"')), made.sql.join("\n")).to.have.length(1);
      const { db } = await startTestServer();
      for (const [i, rir] of (made.reply.body as Array<{ id: string; computed_fields: Record<string, string> }>).entries()) {
        expect(rir.computed_fields).to.deep.equal({ [slug]: names[i].toUpperCase() });
        const [change] = await db("extras_objectchange").where({ changed_object_id: rir.id, action: "create" });
        expect(change.object_data_v2).to.include({ id: rir.id, name: names[i] }).and.not.have.any.keys("computed_fields", "relationships");
      }
    } finally {
      await del(`/api/extras/computed-fields/${field.body.id}/`);
    }
  });

  it("a bulk PATCH costs as many statements for 100 elements as for 10, and changes, tags and records each", async () => {
    const patchOf = async (n: number) => {
      const made = (await post("/api/ipam/prefixes/", prefixes(n))).body as Array<{ id: string }>;
      const [first] = await tags(1);
      const body = made.map((p, i) => ({ id: p.id, description: `set ${i}`, vrf: relations.other, tags: [first.id] }));
      const { reply, sql } = await counted(() => patch("/api/ipam/prefixes/", body));
      expect(reply.status, reply.text.slice(0, 500)).to.equal(200);
      expect(reply.body.map((p: { id: string; description: string }) => [p.id, p.description])).to.deep.equal(body.map((b) => [b.id, b.description]));
      for (const [i, p] of made.entries()) {
        expect(await row("ipam_prefix", p.id)).to.include({ description: `set ${i}`, vrf_id: relations.other });
        expect(await rows("extras_tag_assignment", { object_id: p.id })).to.equal(1);
        expect(await rows("extras_tag_assignment", { object_id: p.id, tag_id: first.id })).to.equal(1);
      }
      expect(await recorded(made.map((p) => p.id), "update")).to.equal(n);
      return sql;
    };
    const few = await patchOf(10);
    const many = await patchOf(100);
    expect(many.length, many.join("\n")).to.equal(few.length);
    expect(many.filter((s) => /^UPDATE "ipam_prefix"/.test(s)), many.join("\n")).to.have.length(1);
  });

  it("a bulk DELETE costs as many statements for 100 elements as for 10, and records each", async () => {
    const deleteOf = async (n: number) => {
      const ids = ((await post("/api/ipam/prefixes/", prefixes(n))).body as Array<{ id: string }>).map((p) => p.id);
      const { reply, sql } = await counted(() => del("/api/ipam/prefixes/", ids.map((id) => ({ id }))));
      expect(reply.status).to.equal(204);
      const { db } = await startTestServer();
      expect(Number((await db("ipam_prefix").whereIn("id", ids).count({ n: "*" }))[0].n)).to.equal(0);
      expect(Number((await db("extras_tag_assignment").whereIn("object_id", ids).count({ n: "*" }))[0].n)).to.equal(0);
      expect(await recorded(ids, "delete")).to.equal(n);
      return sql;
    };
    const few = await deleteOf(10);
    const many = await deleteOf(100);
    expect(many.length, many.join("\n")).to.equal(few.length);
  });

  it("a bulk PATCH of custom fields keeps each row's other values, as a set, in as many statements for 30 elements as for 3", async () => {
    const names = [uniq("set_cf").replace(/-/g, "_"), uniq("set_cf").replace(/-/g, "_")];
    const fields = [];
    for (const name of names) {
      const res = await post("/api/extras/custom-fields/", { name, label: name, type: "integer", content_types: ["circuits.provider"] });
      expect(res.status, res.text).to.equal(201);
      fields.push(res.body.id);
    }
    const patchOf = async (n: number) => {
      const made = (await post("/api/circuits/providers/", Array.from({ length: n }, (_, i) => ({ name: uniq("set provider"), custom_fields: { [names[0]]: i } })))).body;
      const { reply, sql } = await counted(() => patch("/api/circuits/providers/", made.map((p: { id: string }, i: number) => ({ id: p.id, custom_fields: { [names[1]]: 100 + i } }))));
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.body.map((p: { custom_fields: Record<string, unknown> }) => [p.custom_fields[names[0]], p.custom_fields[names[1]]]))
        .to.deep.equal(made.map((_p: unknown, i: number) => [i, 100 + i]));
      for (const [i, p] of made.entries()) expect((await row("circuits_provider", p.id))?.custom_field_data).to.deep.include({ [names[0]]: i, [names[1]]: 100 + i });
      return sql;
    };
    try {
      const few = await patchOf(3);
      const many = await patchOf(30);
      expect(many.length, many.join("\n")).to.equal(few.length);
      expect(many.filter((s) => /^UPDATE "circuits_provider"/.test(s)), many.join("\n")).to.have.length(1);
    } finally {
      for (const id of fields) await del(`/api/extras/custom-fields/${id}/`);
    }
  });

  it("a set the prefix hook refuses is answered as one by one: the first failing element's error, nothing changed", async () => {
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("set vrf"), enforce_unique: true })).body;
    const made = (await post("/api/ipam/prefixes/", [1, 2, 3].map((n) => ({ prefix: `10.249.${n}.0/24`, status: "active", vrf: vrf.id })))).body;
    const res = await patch("/api/ipam/prefixes/", [
      { id: made[0].id, description: "moved" }, { id: made[1].id, prefix: "10.249.9.0/24" }, { id: made[2].id, prefix: "10.249.9.0/24" },
    ]);
    expect([res.status, res.body]).to.deep.equal([400, { prefix: [`Duplicate prefix found in VRF ${vrf.name}: 10.249.9.0/24`] }]);
    expect(await row("ipam_prefix", made[0].id)).to.include({ description: "" });
    expect(await row("ipam_prefix", made[1].id)).to.include({ prefix: "10.249.2.0/24" });
  });

  it("a set the prefix hook refuses but one by one takes (a prefix moving into one an earlier element left) is written one by one", async () => {
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("set vrf"), enforce_unique: true })).body;
    const made = (await post("/api/ipam/prefixes/", [1, 2].map((n) => ({ prefix: `10.252.${n}.0/24`, status: "active", vrf: vrf.id })))).body;
    const res = await patch("/api/ipam/prefixes/", [{ id: made[0].id, prefix: "10.252.9.0/24" }, { id: made[1].id, prefix: "10.252.1.0/24" }]);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.map((p: { prefix: string }) => p.prefix)).to.deep.equal(["10.252.9.0/24", "10.252.1.0/24"]);
    expect(await recorded(made.map((p: { id: string }) => p.id), "update")).to.equal(2);
  });

  it("a tree's parents are updated one by one: a cycle the set closes is refused as before", async () => {
    const [a, b] = (await post("/api/dcim/regions/", [{ name: uniq("set region") }, { name: uniq("set region") }])).body;
    const res = await patch("/api/dcim/regions/", [{ id: a.id, parent: b.id }, { id: b.id, parent: a.id }]);
    expect([res.status, res.body]).to.deep.equal([400, { parent: ["Cannot assign self or child as parent."] }]);
    expect((await row("dcim_region", a.id))?.parent_id).to.equal(null);
  });

  it("a set a constrained user may not leave as written is refused as one by one refuses it, and one it may is written", async () => {
    const server = await startTestServer();
    const mark = uniq("setperm");
    const user = await server.user(mark, { grants: [{ object_types: ["tenancy.tenant"], actions: ["view", "change"], constraints: { description__startswith: mark } }] });
    const made = (await post("/api/tenancy/tenants/", [1, 2, 3].map((n) => ({ name: uniq("set tenant"), description: `${mark} ${n}` })))).body as Array<{ id: string }>;
    const refused = await patch("/api/tenancy/tenants/", made.map((t, n) => ({ id: t.id, description: n === 1 ? "elsewhere" : `${mark} new` })), { token: user.key });
    const alone = await patch("/api/tenancy/tenants/", [{ id: made[1].id, description: "elsewhere" }], { token: user.key });
    expect(refused.status).to.be.oneOf([403, 404]);
    expect([refused.status, refused.body]).to.deep.equal([alone.status, alone.body]);
    for (const [n, t] of made.entries()) expect(await row("tenancy_tenant", t.id)).to.include({ description: `${mark} ${n + 1}` });
    const ok = await patch("/api/tenancy/tenants/", made.map((t, n) => ({ id: t.id, description: `${mark} set ${n}` })), { token: user.key });
    expect(ok.status, ok.text).to.equal(200);
    for (const [n, t] of made.entries()) expect(await row("tenancy_tenant", t.id)).to.include({ description: `${mark} set ${n}` });
  });
});
