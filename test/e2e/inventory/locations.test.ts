// Location types and locations over HTTP: trees of types saying what nests and what their
// locations hold; locations placed by Nautobot's rules (site at the top, parents of the
// parent type below), shown with their ancestors; and racks, rack groups, devices, power
// panels and circuit terminations placed in locations of their site whose type permits them.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: locations", () => {
  const tag = uniq("loc").toLowerCase();
  let site: any, other: any, campus: any, building: any, room: any;

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    other = (await post("/api/dcim/sites/", { name: `${tag}-other`, status: "active" })).body;
  });

  it("location types nest, say what their locations hold, and show their ancestors", async () => {
    const c = await post("/api/dcim/location-types/", { name: `${tag} Campus`, content_types: ["dcim.rackgroup"] });
    expect(c.status, c.text).to.equal(201);
    expect(c.body).to.deep.include({ nestable: false, content_types: ["dcim.rackgroup"], tree_depth: 0, parent: null, slug: `${tag}-campus` });
    campus = c.body;
    building = (await post("/api/dcim/location-types/", { name: `${tag} Building`, parent: { slug: campus.slug }, nestable: true, content_types: ["dcim.rack", "dcim.powerpanel"] })).body;
    room = (await post("/api/dcim/location-types/", { name: `${tag} Room`, parent: building.id, content_types: ["dcim.rack", "dcim.device", "circuits.circuittermination"] })).body;
    expect(room).to.deep.include({ tree_depth: 2, display: `${tag} Campus → ${tag} Building → ${tag} Room` });
    expect(Object.keys(room.parent).sort()).to.deep.equal(["display", "id", "name", "slug", "tree_depth", "url"]);
    // tree_depth belongs to the objects asked for (an annotation of the queried rows): embedded ones show null.
    expect(room.parent.tree_depth).to.equal(null);
    const brief = (await get(`/api/dcim/location-types/?brief=1&slug=${room.slug}`)).body.results;
    expect(brief).to.deep.equal([{ id: room.id, url: room.url, display: room.display, name: room.name, slug: room.slug, tree_depth: 2 }]);
    const bad = await post("/api/dcim/location-types/", { name: "Sites" });
    expect([bad.status, bad.body]).to.deep.equal([400, { name: ["This name is reserved for future use."] }]);
    const kinds = await post("/api/dcim/location-types/", { name: `${tag} X`, content_types: ["dcim.widget"] });
    expect(kinds.status).to.equal(400);
    expect(kinds.body).to.have.property("content_types");
    expect((await get(`/api/dcim/location-types/?parent=${campus.slug}`)).body.results.map((t: any) => t.id)).to.deep.equal([building.id]);
  });

  it("locations follow their type's place in the tree, in Nautobot's words, and storing nothing refused", async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ name: "C", location_type: campus.id, status: "active" }, { site: [`A Location of type ${tag} Campus must have an associated Site.`] }],
      [{ name: "B", location_type: building.id, status: "active", site: site.id }, { site: [`A location of type ${tag} Building must not have an associated Site.`] }],
      [{ name: "B", location_type: building.id, status: "active" }, { parent: [`A Location of type ${tag} Building must have a parent Location.`] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post("/api/dcim/locations/", body);
      expect([res.status, res.body]).to.deep.equal([400, errors]);
    }
    expect(await rows("dcim_location", { location_type_id: building.id })).to.equal(0);
    const north = await post("/api/dcim/locations/", { name: "North", location_type: { slug: campus.slug }, status: "active", site: { slug: site.slug } });
    expect(north.status, north.text).to.equal(201);
    expect(north.body).to.deep.include({ slug: "north", tree_depth: 0, display: "North" });
    expect(north.body.status).to.deep.equal({ value: "active", label: "Active" });
    const hq = (await post("/api/dcim/locations/", { name: "HQ", location_type: building.id, status: "active", parent: north.body.id })).body;
    expect(hq).to.deep.include({ slug: "north-hq", tree_depth: 1, display: "North → HQ", site: null });
    const annex = (await post("/api/dcim/locations/", { name: "Annex", location_type: building.id, status: "planned", parent: hq.id })).body;
    // A slug made from the parent's and the name is kept free by a numbered suffix (AutoSlugField).
    const clash = await post("/api/dcim/locations/", { name: "HQ Annex", location_type: building.id, status: "active", parent: north.body.id });
    expect([clash.status, clash.body.slug]).to.deep.equal([201, "north-hq-annex-2"]);
    const third = await post("/api/dcim/locations/", { name: "HQ  annex", location_type: building.id, status: "active", parent: north.body.id });
    expect([third.status, third.body.slug]).to.deep.equal([201, "north-hq-annex-3"]);
    const given = await post("/api/dcim/locations/", { name: "Other", slug: "north-hq-annex", location_type: building.id, status: "active", parent: north.body.id });
    expect(given.status).to.equal(400);
    expect(given.body).to.have.property("slug");
    for (const made of [clash.body, third.body]) expect((await del(`/api/dcim/locations/${made.id}/`)).status).to.equal(204);
    expect(annex.display).to.equal("North → HQ → Annex");
    const wrong = await post("/api/dcim/locations/", { name: "R1", location_type: room.id, status: "active", parent: north.body.id });
    expect(wrong.body).to.deep.equal({ parent: [`A Location of type ${tag} Room can only have a Location of type ${tag} Building as its parent.`] });
    const r1 = (await post("/api/dcim/locations/", { name: "Room 1", location_type: room.id, status: "active", parent: annex.id })).body;
    expect(r1.display).to.equal("North → HQ → Annex → Room 1");
    const moved = await patch(`/api/dcim/locations/${r1.id}/`, { location_type: building.id });
    expect(moved.body).to.deep.equal({ location_type: [`Changing the type of an existing Location (from ${tag} Room to ${tag} Building in this case) is not permitted.`] });
    const unnest = await patch(`/api/dcim/location-types/${building.id}/`, { nestable: false });
    expect(unnest.body).to.deep.equal({ nestable: ["There are existing nested Locations of this type, so changing this Location Type to be non-nestable is not permitted."] });
    // Filters: by type, parent (a tree: descendants too), site.
    expect((await get(`/api/dcim/locations/?location_type=${room.slug}`)).body.results.map((l: any) => l.id)).to.deep.equal([r1.id]);
    expect((await get(`/api/dcim/locations/?site=${site.slug}`)).body.results.map((l: any) => l.id)).to.deep.equal([north.body.id]);
    expect((await get(`/api/dcim/locations/?parent=${north.body.slug}`)).body.results.map((l: any) => l.id)).to.deep.equal([hq.id]);
    // Nautobot's method filters: a subtree, everything under a site, what may hold a type, what a type permits.
    const ids = async (q: string) => {
      const res = await get(`/api/dcim/locations/?subtree=${north.body.id}&${q}`);
      expect(res.status, `${q}: ${res.text}`).to.equal(200);
      return res.body.results.map((l: any) => l.name);
    };
    expect((await get(`/api/dcim/locations/?subtree=${hq.slug}`)).body.results.map((l: any) => l.name)).to.deep.equal(["Annex", "HQ", "Room 1"]);
    expect(await ids(`base_site=${site.slug}`)).to.deep.equal(["Annex", "HQ", "North", "Room 1"]);
    expect(await ids(`base_site=${other.id}`)).to.deep.equal([]);
    expect(await ids(`child_location_type=${room.slug}`)).to.deep.equal(["Annex", "HQ"]);
    expect(await ids(`child_location_type=${building.id}`)).to.deep.equal(["Annex", "HQ", "North"]);
    expect(await ids("content_type=dcim.rack")).to.deep.equal(["Annex", "HQ", "Room 1"]);
    expect(await ids("content_type=dcim.rack&content_type=dcim.device")).to.deep.equal(["Room 1"]);
    const types = (await get(`/api/dcim/location-types/?q=${tag}&content_types=dcim.powerpanel`)).body.results.map((t: any) => t.id);
    expect(types).to.deep.equal([building.id]);
    for (const [q, key] of [["subtree=nowhere", "subtree"], ["content_type=dcim.widget", "content_type"], ["child_location_type=null", "child_location_type"]]) {
      const bad = await get(`/api/dcim/locations/?${q}`);
      expect([bad.status, Object.keys(bad.body)], q).to.deep.equal([400, [key]]);
    }

    // What locations hold: in the object's site, of a type that permits it.
    const rack = await post("/api/dcim/racks/", { name: `${tag}-R1`, site: site.id, location: r1.id, status: "active" });
    expect(rack.status, rack.text).to.equal(201);
    expect(rack.body.location).to.deep.include({ id: r1.id, tree_depth: null });
    const elsewhere = await post("/api/dcim/racks/", { name: `${tag}-R2`, site: other.id, location: r1.id, status: "active" });
    expect(elsewhere.body).to.deep.equal({ location: [`Location "Room 1" does not belong to site "${other.name}".`] });
    const group = await post("/api/dcim/rack-groups/", { name: `${tag}-G`, site: site.id, location: hq.id });
    expect(group.body).to.deep.equal({ location: [`Rack groups may not associate to locations of type "${tag} Building".`] });
    expect((await post("/api/dcim/rack-groups/", { name: `${tag}-G`, site: site.id, location: north.body.id })).status).to.equal(201);
    expect((await post("/api/dcim/power-panels/", { name: `${tag}-PP`, site: site.id, location: hq.id })).status).to.equal(201);
    // A location filter matches its descendants' objects, as Nautobot's tree filters do.
    expect((await get(`/api/dcim/racks/?location=${north.body.slug}`)).body.results.map((r: any) => r.id)).to.deep.equal([rack.body.id]);
    // Locations with objects are protected; a site takes its top-level locations with it (cascade).
    expect((await del(`/api/dcim/locations/${r1.id}/`)).status).to.equal(409);
    expect((await del(`/api/dcim/location-types/${room.id}/`)).status).to.equal(409);
  });
});
