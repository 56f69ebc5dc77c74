// Relationships defined at run time (Nautobot's extras.Relationship): the definitions' rules,
// associations and their cardinality, `include=relationships` on lists and details, writing
// `relationships` with an object, the cr_ filters, deletion, and a second server instance
// seeing a new definition at once.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { del, get, patch, post, put } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { statements } from "../../support/statements.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { apis } from "../../../generated/server.js";
import { rows, uniq } from "./support.js";

const REL = "/api/extras/relationships/";
const ASSOC = "/api/extras/relationship-associations/";

async function made(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(path, body);
  expect(res.status, `${path} ${res.text}`).to.equal(201);
  return res.body;
}

async function relationship(body: Record<string, unknown>): Promise<Record<string, any>> {
  return made(REL, body);
}

async function link(r: Record<string, any>, source: string, destination: string) {
  return post(ASSOC, { relationship: r.id, source_type: r.source_type, source_id: source, destination_type: r.destination_type, destination_id: destination });
}

describe("inventory e2e: relationships", () => {
  const tag = uniq("rel").toLowerCase();
  const site = (n: string) => made("/api/dcim/sites/", { name: `${tag} site ${n}`, status: "active" });
  const vrf = (n: string) => made("/api/ipam/vrfs/", { name: `${tag} vrf ${n}` });

  it("a relationship gets an underscore slug, defaults, and Nautobot's plain type strings", async () => {
    const r = await relationship({ name: `${tag} Site-to VRF`, source_type: "dcim.site", destination_type: "ipam.vrf" });
    expect(r).to.deep.include({
      slug: `${tag.replace(/-/g, "_")}_site_to_vrf`, type: "many-to-many", required_on: "", description: "",
      source_type: "dcim.site", destination_type: "ipam.vrf", source_label: "", destination_label: "",
      source_hidden: false, destination_hidden: false, source_filter: null, destination_filter: null, display: `${tag} Site-to VRF`,
    });
    const wrong = await post(REL, { name: `${tag} bad`, source_type: "dcim.site", destination_type: "ipam.vrf", type: "one-to-few" });
    expect([wrong.status, wrong.body]).to.deep.equal([400, { type: ['"one-to-few" is not a valid choice.'] }]);
    const model = await post(REL, { name: `${tag} bad`, source_type: "extras.relationship", destination_type: "ipam.vrf" });
    expect(model.status).to.equal(400);
    expect(model.body).to.have.keys("source_type");
    expect((await get(`${REL}?slug=${r.slug}`)).body.count).to.equal(1);
    // A name that makes a slug already taken gets AutoSlugField's numbered suffix.
    const twin = await relationship({ name: `${tag} site to vrf`, source_type: "dcim.site", destination_type: "ipam.vrf" });
    expect(twin.slug).to.equal(`${r.slug}-2`);
    expect((await del(`${REL}${twin.id}/`)).status).to.equal(204);
    expect((await get(`${REL}?source_type=dcim.site&destination_type=ipam.vrf&name=${encodeURIComponent(r.name)}`)).body.count).to.equal(1);
    expect((await del(`${REL}${r.id}/`)).status).to.equal(204);
  });

  it("filters are dictionaries of the side model's filter parameters", async () => {
    const bad = await post(REL, { name: `${tag} f`, source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: { colour: "red" } });
    expect([bad.status, bad.body]).to.deep.equal([400, { source_filter: ["'colour' is not a valid filter parameter for dcim.Site object"] }]);
    // A parameter's refused values: a problem the hook gives and the profile words.
    const value = await post(REL, { name: `${tag} f`, source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: { id: ["nope"] } });
    expect([value.status, value.body]).to.deep.equal([400, { source_filter: ["'id': Enter a valid UUID."] }]);
    const list = await post(REL, { name: `${tag} f`, source_type: "dcim.site", destination_type: "ipam.vrf", destination_filter: ["name"] });
    expect([list.status, list.body]).to.deep.equal([400, { destination_filter: ["Filter for ipam.VRF must be a dictionary"] }]);
    const ok = await relationship({ name: `${tag} f`, source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: { status: ["active"] } });
    expect(ok.source_filter).to.deep.equal({ status: ["active"] });
    await del(`${REL}${ok.id}/`);
  });

  it("symmetric relationships have one model, label, hidden flag and filter, and are never required", async () => {
    const bad = await post(REL, {
      name: `${tag} sym`, type: "symmetric-many-to-many", source_type: "dcim.site", destination_type: "ipam.vrf",
      source_label: "a", destination_label: "b", destination_hidden: true, required_on: "source",
    });
    expect([bad.status, bad.body]).to.deep.equal([400, {
      destination_type: ["Must match source_type for a symmetric relationship"],
      destination_label: ["Must match source_label for a symmetric relationship"],
      destination_hidden: ["Must match source_hidden for a symmetric relationship"],
      required_on: ["Symmetric relationships cannot be marked as required."],
    }]);
    const ok = await relationship({ name: `${tag} sym`, type: "symmetric-one-to-one", source_type: "dcim.site", destination_type: "dcim.site", destination_label: "Twin" });
    expect(ok).to.deep.include({ source_label: "Twin", destination_label: "Twin" });
    await del(`${REL}${ok.id}/`);
  });

  it("associations: types must match, no self link, no duplicates, and each type's cardinality", async () => {
    const [s1, s2, s3] = [await site("c1"), await site("c2"), await site("c3")];
    const [v1, v2] = [await vrf("c1"), await vrf("c2")];
    const o2o = await relationship({ name: `${tag} one`, type: "one-to-one", source_type: "dcim.site", destination_type: "ipam.vrf" });
    const wrongType = await post(ASSOC, { relationship: o2o.id, source_type: "ipam.vrf", source_id: v1.id, destination_type: "ipam.vrf", destination_id: v2.id });
    expect([wrongType.status, wrongType.body]).to.deep.equal([400, { source_type: [`source_type has a different value than defined in ${tag} one`] }]);
    const first = await link(o2o, s1.id, v1.id);
    expect(first.status, first.text).to.equal(201);
    expect(first.body).to.deep.include({ source_type: "dcim.site", source_id: s1.id, destination_type: "ipam.vrf", destination_id: v1.id });
    expect(first.body.relationship).to.deep.include({ id: o2o.id, name: o2o.name, slug: o2o.slug });
    expect((await link(o2o, s1.id, v1.id)).body).to.deep.equal({ non_field_errors: ["The fields relationship, source_type, source_id, destination_type, destination_id must make a unique set."] });
    expect((await link(o2o, s2.id, v1.id)).body).to.deep.equal({ destination: [`Unable to create more than one ${tag} one association to ${v1.name} (destination)`] });
    expect((await link(o2o, s1.id, v2.id)).body).to.deep.equal({ source: [`Unable to create more than one ${tag} one association from ${s1.name} (source)`] });

    const o2m = await relationship({ name: `${tag} many`, type: "one-to-many", source_type: "dcim.site", destination_type: "ipam.vrf" });
    expect((await link(o2m, s1.id, v1.id)).status).to.equal(201);
    expect((await link(o2m, s1.id, v2.id)).status).to.equal(201);
    expect((await link(o2m, s2.id, v2.id)).body).to.deep.equal({ destination: [`Unable to create more than one ${tag} many association to ${v2.name} (destination)`] });

    const m2m = await relationship({ name: `${tag} m2m`, source_type: "dcim.site", destination_type: "ipam.vrf" });
    for (const [s, v] of [[s1, v1], [s2, v1], [s1, v2]]) expect((await link(m2m, s.id, v.id)).status).to.equal(201);

    const sym = await relationship({ name: `${tag} peers`, type: "symmetric-one-to-one", source_type: "dcim.site", destination_type: "dcim.site" });
    expect((await link(sym, s1.id, s1.id)).body).to.deep.equal({ destination_id: ["An object cannot form a RelationshipAssociation with itself"] });
    expect((await link(sym, s1.id, s2.id)).status).to.equal(201);
    expect((await link(sym, s2.id, s1.id)).body).to.deep.equal({ __all__: [`A ${tag} peers association already exists between ${s2.name} and ${s1.name}`] });
    expect((await link(sym, s3.id, s1.id)).body).to.deep.equal({ destination: [`Unable to create more than one ${tag} peers association involving ${s1.name} (peer)`] });
    expect((await link(sym, s2.id, s3.id)).body).to.deep.equal({ source: [`Unable to create more than one ${tag} peers association involving ${s2.name} (peer)`] });
    expect((await link(sym, s3.id, s2.id)).body).to.deep.equal({ destination: [`Unable to create more than one ${tag} peers association to ${s2.name} (destination)`] });

    const symMany = await relationship({ name: `${tag} mesh`, type: "symmetric-many-to-many", source_type: "dcim.site", destination_type: "dcim.site" });
    expect((await link(symMany, s1.id, s2.id)).status).to.equal(201);
    expect((await link(symMany, s3.id, s1.id)).status).to.equal(201);
    expect((await link(symMany, s2.id, s1.id)).body).to.deep.equal({ __all__: [`A ${tag} mesh association already exists between ${s2.name} and ${s1.name}`] });

    const filtered = await relationship({ name: `${tag} planned`, source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: { status: ["planned"] } });
    expect((await link(filtered, s1.id, v1.id)).body).to.deep.equal({ source: [`${s1.name} violates ${tag} planned source_filter restriction`] });

    // The association filters.
    const bySlug = await get(`${ASSOC}?relationship=${m2m.slug}`);
    expect(bySlug.status, bySlug.text).to.equal(200);
    expect(bySlug.body.count).to.equal(3);
    expect((await get(`${ASSOC}?relationship=${m2m.slug}&source_id=${s1.id}`)).body.count).to.equal(2);
    expect((await get(`${ASSOC}?relationship=${m2m.slug}&destination_id=${v1.id}`)).body.count).to.equal(2);
    expect((await get(`${ASSOC}?relationship=${m2m.slug}&source_type=dcim.site&destination_type=ipam.vrf`)).body.count).to.equal(3);
    expect((await get(`${ASSOC}?peer_id=${s1.id}&relationship=${symMany.slug}`)).body.count).to.equal(2);
    expect((await get(`${ASSOC}?peer_id=${s1.id}&relationship=${m2m.slug}`)).body.count).to.equal(0);

    // A relationship with associations keeps its type and models.
    const change = await patch(`${REL}${m2m.id}/`, { type: "one-to-many" });
    expect([change.status, change.body]).to.deep.equal([400, { __all__: ["Not supported to change the type of the relationship when some associations are present in the database, delete all associations first before modifying the type."] }]);
    const model = await patch(`${REL}${m2m.id}/`, { destination_type: "dcim.rack" });
    expect(model.body).to.deep.equal({ __all__: ["Not supported to change the type of the destination object when some associations are present in the database, delete all associations first before modifying the destination type."] });

    for (const r of [o2o, o2m, m2m, sym, symMany, filtered]) expect((await del(`${REL}${r.id}/`)).status).to.equal(204);
    expect(await rows("extras_relationshipassociation", { relationship_id: m2m.id })).to.equal(0);
  });

  it("include=relationships shows every relationship of the model, keyed by slug, with the other end's nested objects", async () => {
    const [s1, s2] = [await site("i1"), await site("i2")];
    const [v1, v2] = [await vrf("i1"), await vrf("i2")];
    const r = await relationship({ name: `${tag} inc`, source_type: "dcim.site", destination_type: "ipam.vrf", destination_label: "Sites here", source_hidden: true });
    const peers = await relationship({ name: `${tag} twins`, type: "symmetric-many-to-many", source_type: "dcim.site", destination_type: "dcim.site" });
    for (const [a, b] of [[s1.id, v1.id], [s1.id, v2.id]]) expect((await link(r, a, b)).status).to.equal(201);
    expect((await link(peers, s2.id, s1.id)).status).to.equal(201);
    const plain = await get(`/api/dcim/sites/${s1.id}/`);
    expect(plain.body).to.not.have.property("relationships");
    const detail = await get(`/api/dcim/sites/${s1.id}/?include=relationships`);
    expect(detail.status).to.equal(200);
    const nestedVrf = (v: Record<string, any>) => ({ id: v.id, url: v.url, display: v.display, name: v.name, rd: null });
    const got = detail.body.relationships[r.slug];
    expect(got).to.deep.include({ id: r.id, url: r.url, name: r.name, type: "many-to-many" });
    expect(got).to.have.keys("id", "url", "name", "type", "destination");
    expect(got.destination).to.deep.include({ label: "VRFs", object_type: "ipam.vrf" });
    expect(detail.body.relationships[r.slug].destination.objects.map((o: any) => o.id).sort()).to.deep.equal([v1.id, v2.id].sort());
    expect(detail.body.relationships[r.slug].destination.objects.find((o: any) => o.id === v1.id)).to.deep.equal(nestedVrf(v1));
    const nestedSite = (x: Record<string, any>) => ({ id: x.id, url: x.url, display: x.display, name: x.name, slug: x.slug });
    expect(detail.body.relationships[peers.slug]).to.deep.equal({
      id: peers.id, url: peers.url, name: peers.name, type: "symmetric-many-to-many",
      peer: { label: "sites", object_type: "dcim.site", objects: [nestedSite(s2)] },
    });
    const vrfSide = await get(`/api/ipam/vrfs/${v1.id}/?include=relationships`);
    expect(vrfSide.body.relationships[r.slug]).to.deep.equal({
      id: r.id, url: r.url, name: r.name, type: "many-to-many",
      source: { label: "Sites here", object_type: "dcim.site", objects: [nestedSite(s1)] },
    });
    const list = await get(`/api/dcim/sites/?include=relationships&name=${encodeURIComponent(s1.name)}&name=${encodeURIComponent(s2.name)}`);
    expect(list.body.results.map((x: any) => Object.keys(x.relationships[peers.slug].peer.objects).length)).to.deep.equal([1, 1]);
    expect(list.body.results.find((x: any) => x.id === s2.id).relationships[r.slug].destination.objects).to.deep.equal([]);
    // The whole page, relationships and all, is one read, filtered by a relationship too.
    const counted = await statements(`/api/dcim/sites/?include=relationships&cr_${peers.slug}__peer=${s1.id}`);
    expect(counted.body.count).to.equal(1);
    expect(counted.sql, counted.sql.join("\n")).to.have.length(1);
    // Write replies always carry it.
    const written = await patch(`/api/dcim/sites/${s2.id}/`, { description: "x" });
    expect(written.body.relationships[peers.slug].peer.objects).to.deep.equal([nestedSite(s1)]);
    for (const x of [r, peers]) await del(`${REL}${x.id}/`);
  });

  it("writes replace the sides given, leave the others, and refuse in Nautobot's words inside the write's transaction", async () => {
    const [s1, s2] = [await site("w1"), await site("w2")];
    const [v1, v2, v3] = [await vrf("w1"), await vrf("w2"), await vrf("w3")];
    const m2m = await relationship({ name: `${tag} wm`, source_type: "dcim.site", destination_type: "ipam.vrf" });
    const o2o = await relationship({ name: `${tag} wo`, type: "one-to-one", source_type: "dcim.site", destination_type: "ipam.vrf" });
    const ids = async (r: Record<string, any>, id: string) => (await get(`/api/dcim/sites/${id}/?include=relationships`)).body.relationships[r.slug].destination.objects.map((o: any) => o.id).sort();
    const set = await patch(`/api/dcim/sites/${s1.id}/`, { relationships: { [m2m.slug]: { destination: { objects: [v1.id, { name: v2.name }] } } } });
    expect(set.status, set.text).to.equal(200);
    expect(set.body.relationships[m2m.slug].destination.objects.map((o: any) => o.id).sort()).to.deep.equal([v1.id, v2.id].sort());
    await patch(`/api/dcim/sites/${s1.id}/`, { relationships: { [m2m.slug]: { destination: { objects: [v2.id, v3.id] } } } });
    expect(await ids(m2m, s1.id)).to.deep.equal([v2.id, v3.id].sort());
    await patch(`/api/dcim/sites/${s1.id}/`, { relationships: { [o2o.slug]: { destination: { objects: [v1.id] } } } });
    expect(await ids(m2m, s1.id)).to.deep.equal([v2.id, v3.id].sort());
    await patch(`/api/dcim/sites/${s1.id}/`, { relationships: { [m2m.slug]: {} } });
    expect(await ids(m2m, s1.id)).to.deep.equal([v2.id, v3.id].sort());
    await put(`/api/dcim/sites/${s1.id}/`, { name: s1.name, slug: s1.slug, status: "active", relationships: { [m2m.slug]: { destination: { objects: [] } } } });
    expect(await ids(m2m, s1.id)).to.deep.equal([]);
    expect(await ids(o2o, s1.id)).to.deep.equal([v1.id]);

    const errors: Array<[unknown, unknown]> = [
      [{ nope: {} }, [`"nope" is not a relationship on dcim.Site`]],
      ["x", ['Expected a dictionary of items but got type "str".']],
      [{ [m2m.slug]: { source: { objects: [] } } }, [`"source" is not a valid side for "${m2m.name}" on dcim.Site`]],
      [{ [m2m.slug]: { destination: {} } }, [`"objects" must be specified under ["${m2m.slug}"]["destination"] when present`]],
      [{ [m2m.slug]: { destination: { objects: v1.id } } }, ['"objects" must be a list, not a single value']],
      [{ [o2o.slug]: { destination: { objects: [v2.id, v3.id] } } }, [`For "${o2o.name}", "destination" objects must include at most a single object`]],
      [{ [m2m.slug]: { destination: { objects: [s2.id] } } }, [`Related object not found using the provided ID: ${s2.id}`]],
      [{ [o2o.slug]: { destination: { objects: [v1.id] } } }, [`Unable to create more than one ${o2o.name} association to ${v1.name} (destination)`]],
    ];
    for (const [relationships, expected] of errors) {
      const res = await patch(`/api/dcim/sites/${s2.id}/`, { description: "changed", relationships });
      expect([res.status, res.body], JSON.stringify(relationships)).to.deep.equal([400, { relationships: expected }]);
    }
    expect((await get(`/api/dcim/sites/${s2.id}/`)).body.description).to.equal("");
    // All or none in a bulk write too.
    const bulk = await patch("/api/dcim/sites/", [
      { id: s2.id, relationships: { [m2m.slug]: { destination: { objects: [v3.id] } } } },
      { id: s1.id, description: "bulk", relationships: { [o2o.slug]: { destination: { objects: [v2.id, v3.id] } } } },
    ]);
    expect(bulk.status).to.equal(400);
    expect(await ids(m2m, s2.id)).to.deep.equal([]);
    const created = await post("/api/dcim/sites/", { name: `${tag} site w3`, status: "active", relationships: { [m2m.slug]: { destination: { objects: [v1.id] } } } });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.relationships[m2m.slug].destination.objects.map((o: any) => o.id)).to.deep.equal([v1.id]);

    // A symmetric relationship is written from either end as "peer".
    const mesh = await relationship({ name: `${tag} wmesh`, type: "symmetric-many-to-many", source_type: "dcim.site", destination_type: "dcim.site" });
    expect((await patch(`/api/dcim/sites/${s1.id}/`, { relationships: { [mesh.slug]: { peer: { objects: [s2.id] } } } })).status).to.equal(200);
    const fromOther = await get(`/api/dcim/sites/${s2.id}/?include=relationships`);
    expect(fromOther.body.relationships[mesh.slug].peer.objects.map((o: any) => o.id)).to.deep.equal([s1.id]);
    expect((await patch(`/api/dcim/sites/${s2.id}/`, { relationships: { [mesh.slug]: { peer: { objects: [] } } } })).status).to.equal(200);
    expect(await rows("extras_relationshipassociation", { relationship_id: mesh.id })).to.equal(0);
    await del(`${REL}${mesh.id}/`);

    // Deleting an object deletes its associations, at either end.
    expect(await rows("extras_relationshipassociation", { source_id: created.body.id })).to.equal(1);
    expect((await del(`/api/dcim/sites/${created.body.id}/`)).status).to.equal(204);
    expect(await rows("extras_relationshipassociation", { source_id: created.body.id })).to.equal(0);
    expect((await del(`/api/ipam/vrfs/${v1.id}/`)).status).to.equal(204);
    expect(await rows("extras_relationshipassociation", { destination_id: v1.id })).to.equal(0);
    for (const x of [m2m, o2o]) await del(`${REL}${x.id}/`);
  });

  it("required relationships must be given on create, and on update when the key is sent or none exist", async () => {
    const r = await relationship({ name: `${tag} req`, type: "one-to-many", source_type: "dcim.rackreservation", destination_type: "ipam.routetarget", required_on: "destination" });
    try {
      // The hint appears only while no rack reservation exists (other suites may have made one).
      const hint = (await rows("dcim_rackreservation")) === 0
        ? ["Route targets require a rack reservation, but no rack reservations exist yet. Create a rack reservation by posting to /api/dcim/rack-reservations/"] : [];
      const none = await post("/api/ipam/route-targets/", { name: "65000:991" });
      expect([none.status, none.body]).to.deep.equal([400, { relationships: { [r.slug]: [
        ...hint, `You need to specify ["relationships"]["${r.slug}"]["source"]["objects"].`,
      ] } }]);
      // A rack of its own: another suite's rack may be too short or have the unit taken.
      const site = await made("/api/dcim/sites/", { name: `${tag} req site`, status: "active" });
      const rack = await made("/api/dcim/racks/", { name: `${tag} req rack`, site: site.id, status: "active" });
      const admin = (await get("/api/users/users/?username=admin")).body.results[0];
      const group = await made("/api/dcim/rack-reservations/", { rack: rack.id, units: [12], user: admin.id, description: tag });
      const missing = await post("/api/ipam/route-targets/", { name: "65000:991" });
      expect(missing.body).to.deep.equal({ relationships: { [r.slug]: [`You need to specify ["relationships"]["${r.slug}"]["source"]["objects"].`] } });
      const ok = await post("/api/ipam/route-targets/", { name: "65000:991", relationships: { [r.slug]: { source: { objects: [group.id] } } } });
      expect(ok.status, ok.text).to.equal(201);
      expect((await patch(`/api/ipam/route-targets/${ok.body.id}/`, { description: "kept" })).status).to.equal(200);
      const cleared = await patch(`/api/ipam/route-targets/${ok.body.id}/`, { relationships: { [r.slug]: { source: { objects: [] } } } });
      expect(cleared.body).to.deep.equal({ relationships: { [r.slug]: [`You need to specify ["relationships"]["${r.slug}"]["source"]["objects"].`] } });
      await del(`/api/ipam/route-targets/${ok.body.id}/`);
      await del(`/api/dcim/rack-reservations/${group.id}/`);
    } finally {
      await del(`${REL}${r.id}/`);
    }
  });

  it("a second server instance on the same database sees a new relationship at once", async () => {
    const server = await startTestServer();
    const app = createApp(apis, server.db, { ...configFromEnv(), dataDir: "memory://", logRequests: false, publicUrl: undefined });
    const other: Server = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const s1 = await site("x1");
      const before = await get(`${url}/api/dcim/sites/${s1.id}/?include=relationships`);
      expect(before.status).to.equal(200);
      const r = await relationship({ name: `${tag} late`, source_type: "dcim.site", destination_type: "ipam.vrf" });
      const after = await get(`${url}/api/dcim/sites/${s1.id}/?include=relationships`);
      expect(after.body.relationships[r.slug]).to.deep.include({ id: r.id, name: r.name });
      const write = await patch(`${url}/api/dcim/sites/${s1.id}/`, { relationships: { [r.slug]: { destination: { objects: [(await vrf("x1")).id] } } } });
      expect(write.status, write.text).to.equal(200);
      await del(`${REL}${r.id}/`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("cr_<slug>__<side> filters find the objects linked to the ones given; hidden sides offer none", async () => {
    const [s1, s2, s3] = [await site("f1"), await site("f2"), await site("f3")];
    const [v1, v2] = [await vrf("f1"), await vrf("f2")];
    const r = await relationship({ name: `${tag} flt`, source_type: "dcim.site", destination_type: "ipam.vrf", destination_hidden: true });
    const sym = await relationship({ name: `${tag} fsym`, type: "symmetric-many-to-many", source_type: "dcim.site", destination_type: "dcim.site" });
    for (const [a, b] of [[s1.id, v1.id], [s2.id, v1.id], [s2.id, v2.id]]) expect((await link(r, a, b)).status).to.equal(201);
    for (const [a, b] of [[s1.id, s2.id], [s3.id, s1.id]]) expect((await link(sym, a, b)).status).to.equal(201);
    const names = async (path: string) => (await get(path)).body.results.map((x: any) => x.name).sort();
    expect(await names(`/api/dcim/sites/?cr_${r.slug}__destination=${v1.id}`)).to.deep.equal([s1.name, s2.name]);
    expect(await names(`/api/dcim/sites/?cr_${r.slug}__destination=${v2.id}&cr_${r.slug}__destination=${v1.id}`)).to.deep.equal([s1.name, s2.name]);
    expect(await names(`/api/dcim/sites/?cr_${r.slug}__destination=${v2.id}`)).to.deep.equal([s2.name]);
    expect(await names(`/api/dcim/sites/?cr_${sym.slug}__peer=${s1.id}`)).to.deep.equal([s2.name, s3.name]);
    expect(await names(`/api/dcim/sites/?cr_${sym.slug}__peer=${s2.id}`)).to.deep.equal([s1.name]);
    // The VRF side is hidden: no cr_…__source filter on VRFs; and sites have no __source side.
    expect((await get(`/api/ipam/vrfs/?cr_${r.slug}__source=${s1.id}`)).body).to.deep.equal({ [`cr_${r.slug}__source`]: ["Unknown filter field"] });
    expect((await get(`/api/dcim/sites/?cr_${r.slug}__source=${v1.id}`)).body).to.deep.equal({ [`cr_${r.slug}__source`]: ["Unknown filter field"] });
    expect((await get(`/api/dcim/sites/?cr_nothing__peer=${s1.id}`)).body).to.deep.equal({ cr_nothing__peer: ["Unknown filter field"] });
    expect((await get(`/api/dcim/sites/?cr_${r.slug}__destination=${s1.id}`)).body).to.deep.equal({
      [`cr_${r.slug}__destination`]: [`Select a valid choice. ${s1.id} is not one of the available choices.`],
    });
    expect((await get(`/api/dcim/sites/?cr_${r.slug}__destination=abc`)).body).to.deep.equal({ [`cr_${r.slug}__destination`]: ["“abc” is not a valid value."] });
    for (const x of [r, sym]) await del(`${REL}${x.id}/`);
  });
});
