// Relationships defined at run time (Nautobot's extras.Relationship): the definitions' rules,
// associations and their cardinality, `include=relationships` on lists and details, writing
// `relationships` with an object, the cr_ filters, deletion, and a second server instance
// seeing a new definition at once.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
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
    expect((await get(`${REL}?source_type=dcim.site&destination_type=ipam.vrf&name=${encodeURIComponent(r.name)}`)).body.count).to.equal(1);
    expect((await del(`${REL}${r.id}/`)).status).to.equal(204);
  });

  it("filters are dictionaries of the side model's filter parameters", async () => {
    const bad = await post(REL, { name: `${tag} f`, source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: { colour: "red" } });
    expect([bad.status, bad.body]).to.deep.equal([400, { source_filter: ["'colour' is not a valid filter parameter for dcim.Site object"] }]);
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
});
