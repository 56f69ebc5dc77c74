// IPAM over HTTP beyond prefixes and addresses: RIRs and aggregates (which never overlap),
// route targets that VRFs import and export (and the `present_in_vrf` filters built on them),
// VLAN groups and VLANs with Nautobot's site, location and group rules, and prefixes on VLANs
// and locations, each refusal in Nautobot's words.
import { expect } from "chai";
import { del, get, patch, post, put } from "../../support/http.js";
import { rows, uniq } from "./support.js";

const ids = (reply: { body: any }) => reply.body.results.map((o: any) => o.id).sort();
const sorted = (...xs: string[]) => [...xs].sort();

describe("inventory e2e: ipam", () => {
  const tag = uniq("ipam").toLowerCase();
  // Address space neither the demo data nor another suite uses: 100.64.0.0/10 and a ULA block of this process.
  const v6 = `fd00:${(process.pid % 0xffff).toString(16)}`;

  describe("RIRs and aggregates", () => {
    let rir: any, tenant: any;

    before(async () => {
      tenant = (await post("/api/tenancy/tenants/", { name: `${tag}-tenant` })).body;
    });

    it("creates RIRs and aggregates in Nautobot's shapes, host bits cleared", async () => {
      const r = await post("/api/ipam/rirs/", { name: `${tag} ARIN`, is_private: true });
      expect(r.status, r.text).to.equal(201);
      rir = r.body;
      expect(rir).to.deep.include({ slug: `${tag}-arin`, is_private: true, description: "", aggregate_count: 0, display: `${tag} ARIN` });

      const a = await post("/api/ipam/aggregates/", { prefix: "100.64.1.7/16", rir: { slug: rir.slug }, tenant: tenant.id, date_added: "2024-03-04", tags: [] });
      expect(a.status, a.text).to.equal(201);
      expect(a.body).to.deep.include({ prefix: "100.64.0.0/16", display: "100.64.0.0/16", date_added: "2024-03-04", description: "" });
      expect(a.body.family).to.deep.equal({ value: 4, label: "IPv4" });
      expect(Object.keys(a.body.rir).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
      expect(a.body.tenant.id).to.equal(tenant.id);
      const brief = await get(`/api/ipam/aggregates/${a.body.id}/?brief=1`);
      expect(brief.body).to.deep.equal({ id: a.body.id, url: a.body.url, display: "100.64.0.0/16", family: 4, prefix: "100.64.0.0/16" });

      expect((await get(`/api/ipam/rirs/${rir.id}/`)).body.aggregate_count).to.equal(1);
      expect(Object.keys((await get(`/api/ipam/rirs/${rir.id}/?brief=1`)).body).sort()).to.deep.equal(["aggregate_count", "display", "id", "name", "slug", "url"]);
      expect((await get(`/api/tenancy/tenants/${tenant.id}/`)).body).to.not.have.property("aggregate_count");

      // The RIR is protected by its aggregate.
      expect((await del(`/api/ipam/rirs/${rir.id}/`)).status).to.equal(409);
    });

    it("refuses /0 and overlapping aggregates, in Nautobot's words, and stores nothing", async () => {
      const before = await rows("ipam_aggregate");
      const cases: Array<[string, unknown]> = [
        ["0.0.0.0/0", { prefix: ["Cannot create aggregate with /0 mask."] }],
        ["100.64.0.0/16", { prefix: ["Aggregates cannot overlap. 100.64.0.0/16 is already covered by an existing aggregate (100.64.0.0/16)."] }],
        ["100.64.8.0/24", { prefix: ["Aggregates cannot overlap. 100.64.8.0/24 is already covered by an existing aggregate (100.64.0.0/16)."] }],
        ["100.64.0.0/10", { prefix: ["Aggregates cannot overlap. 100.64.0.0/10 covers an existing aggregate (100.64.0.0/16)."] }],
        ["100.64.0.0/33", { prefix: ["Enter a valid IPv4 or IPv6 network in CIDR notation: 100.64.0.0/33"] }],
      ];
      for (const [prefix, body] of cases) {
        const reply = await post("/api/ipam/aggregates/", { prefix, rir: rir.id });
        expect([prefix, reply.status, reply.body]).to.deep.equal([prefix, 400, body]);
      }
      const missing = await post("/api/ipam/aggregates/", { prefix: "100.65.0.0/16" });
      expect([missing.status, missing.body]).to.deep.equal([400, { rir: ["This field is required."] }]);
      expect(await rows("ipam_aggregate")).to.equal(before);

      // An aggregate never overlaps itself; moving it onto free space is fine, onto another's is not.
      const six = await post("/api/ipam/aggregates/", { prefix: `${v6}::/48`, rir: rir.id, description: "documentation" });
      expect(six.status, six.text).to.equal(201);
      expect(six.body.family).to.deep.equal({ value: 6, label: "IPv6" });
      const [own] = (await get("/api/ipam/aggregates/?prefix=100.64.0.0/16")).body.results;
      expect((await put(`/api/ipam/aggregates/${own.id}/`, { prefix: "100.64.0.0/16", rir: rir.id })).status).to.equal(200);
      const onto = await patch(`/api/ipam/aggregates/${own.id}/`, { prefix: `${v6}:0:1::/64` });
      expect([onto.status, onto.body]).to.deep.equal([400, { prefix: [`Aggregates cannot overlap. ${v6}:0:1::/64 is already covered by an existing aggregate (${v6}::/48).`] }]);
    });

    it("filters aggregates as Nautobot's AggregateFilterSet", async () => {
      const all = (await get(`/api/ipam/aggregates/?rir=${rir.slug}`)).body.results;
      expect(all.map((a: any) => a.prefix)).to.deep.equal(["100.64.0.0/16", `${v6}::/48`]);
      const [four, six] = all;
      expect(ids(await get(`/api/ipam/aggregates/?rir_id=${rir.id}&family=6`))).to.deep.equal([six.id]);
      expect(ids(await get(`/api/ipam/aggregates/?prefix=100.64.0.0/16`))).to.deep.equal([four.id]);
      expect(ids(await get(`/api/ipam/aggregates/?rir=${rir.slug}&q=100.64`))).to.deep.equal([four.id]);
      expect(ids(await get(`/api/ipam/aggregates/?rir=${rir.slug}&q=documentation`))).to.deep.equal([six.id]);
      expect(ids(await get(`/api/ipam/aggregates/?tenant=${tenant.slug}`))).to.deep.equal([four.id]);
      expect(ids(await get(`/api/ipam/aggregates/?rir=${rir.slug}&date_added__gte=2024-01-01`))).to.deep.equal([four.id]);
      expect(ids(await get(`/api/ipam/rirs/?is_private=true&q=${tag}`))).to.deep.equal([rir.id]);
      // Nautobot 1.5 has no within/contains filters on aggregates: strict filtering refuses them.
      const within = await get("/api/ipam/aggregates/?within=100.64.0.0/10");
      expect([within.status, within.body]).to.deep.equal([400, { within: ["Unknown filter field"] }]);
    });
  });

  describe("route targets, VRFs and present_in_vrf", () => {
    let rt1: any, rt2: any, vrfA: any, vrfB: any, vrfC: any;

    it("creates route targets (unique, at most 21 characters) and links them to VRFs by id", async () => {
      const r1 = await post("/api/ipam/route-targets/", { name: `65000:${process.pid}`, description: "one" });
      expect(r1.status, r1.text).to.equal(201);
      rt1 = r1.body;
      expect(rt1).to.deep.include({ display: rt1.name, tenant: null, description: "one", tags: [] });
      rt2 = (await post("/api/ipam/route-targets/", { name: `65001:${process.pid}` })).body;
      const dup = await post("/api/ipam/route-targets/", { name: rt1.name });
      expect([dup.status, dup.body]).to.deep.equal([400, { name: ["route target with this name already exists."] }]);
      const long = await post("/api/ipam/route-targets/", { name: "4294967295:4294967295" + "9" });
      expect([long.status, long.body]).to.deep.equal([400, { name: ["Ensure this field has no more than 21 characters."] }]);

      const a = await post("/api/ipam/vrfs/", { name: `${tag}-A`, rd: `64512:${process.pid}`, import_targets: [rt1.id], export_targets: [rt2.id] });
      expect(a.status, a.text).to.equal(201);
      vrfA = a.body;
      expect(vrfA.display).to.equal(`${tag}-A (64512:${process.pid})`);
      expect(vrfA.import_targets).to.deep.equal([{ id: rt1.id, url: rt1.url, display: rt1.name, name: rt1.name }]);
      expect(vrfA.export_targets.map((t: any) => t.id)).to.deep.equal([rt2.id]);
      vrfB = (await post("/api/ipam/vrfs/", { name: `${tag}-B`, export_targets: [rt1.id] })).body;
      expect(vrfB.display).to.equal(`${tag}-B`);
      vrfC = (await post("/api/ipam/vrfs/", { name: `${tag}-C`, rd: `64513:${process.pid}` })).body;
      const bad = await patch(`/api/ipam/vrfs/${vrfC.id}/`, { import_targets: ["00000000-0000-4000-8000-000000000000"] });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.have.property("import_targets");
    });

    it("filters VRFs by their targets and route targets by their VRFs", async () => {
      const mine = `q=${tag}`;
      expect(ids(await get(`/api/ipam/vrfs/?${mine}&import_target=${rt1.name}`))).to.deep.equal([vrfA.id]);
      expect(ids(await get(`/api/ipam/vrfs/?${mine}&import_target_id=${rt1.id}`))).to.deep.equal([vrfA.id]);
      expect(ids(await get(`/api/ipam/vrfs/?${mine}&export_target=${rt1.id}`))).to.deep.equal([vrfB.id]);
      expect(ids(await get(`/api/ipam/vrfs/?${mine}&export_target_id=${rt2.id}`))).to.deep.equal([vrfA.id]);
      expect(ids(await get(`/api/ipam/vrfs/?${mine}&export_target__n=${rt1.name}`))).to.deep.equal(sorted(vrfA.id, vrfC.id));
      const plural = await get("/api/ipam/vrfs/?import_targets=x");
      expect([plural.status, plural.body]).to.deep.equal([400, { import_targets: ["Unknown filter field"] }]);

      expect(ids(await get(`/api/ipam/route-targets/?importing_vrf=${vrfA.rd}`))).to.deep.equal([rt1.id]);
      expect(ids(await get(`/api/ipam/route-targets/?importing_vrf_id=${vrfA.id}`))).to.deep.equal([rt1.id]);
      expect(ids(await get(`/api/ipam/route-targets/?exporting_vrf=${vrfA.id}`))).to.deep.equal([rt2.id]);
      expect(ids(await get(`/api/ipam/route-targets/?exporting_vrf_id=${vrfB.id}`))).to.deep.equal([rt1.id]);
      expect(ids(await get(`/api/ipam/route-targets/?q=${process.pid}&name=${rt2.name}`))).to.deep.equal([rt2.id]);
      const unknown = await get("/api/ipam/route-targets/?importing_vrf=1:1");
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.have.property("importing_vrf");
    });

    it("finds prefixes and addresses present in a VRF: its own, and those of VRFs exporting what it imports", async () => {
      const prefix = async (n: number, vrf: any) => (await post("/api/ipam/prefixes/", { prefix: `100.127.${n}.0/24`, status: "active", vrf: vrf.id })).body;
      const address = async (n: number, vrf: any) => (await post("/api/ipam/ip-addresses/", { address: `100.127.${n}.1/24`, status: "active", vrf: vrf.id })).body;
      const [pa, pb, pc] = [await prefix(1, vrfA), await prefix(2, vrfB), await prefix(3, vrfC)];
      const [ia, ib] = [await address(1, vrfA), await address(2, vrfB), await address(3, vrfC)];
      expect(ids(await get(`/api/ipam/prefixes/?present_in_vrf=${vrfA.rd}`))).to.deep.equal(sorted(pa.id, pb.id));
      expect(ids(await get(`/api/ipam/prefixes/?present_in_vrf_id=${vrfA.id}`))).to.deep.equal(sorted(pa.id, pb.id));
      expect(ids(await get(`/api/ipam/prefixes/?present_in_vrf_id=${vrfB.id}`))).to.deep.equal([pb.id]);
      expect(ids(await get(`/api/ipam/prefixes/?present_in_vrf=${vrfC.rd}`))).to.deep.equal([pc.id]);
      expect(ids(await get(`/api/ipam/ip-addresses/?present_in_vrf=${vrfA.rd}`))).to.deep.equal(sorted(ia.id, ib.id));
      expect(ids(await get(`/api/ipam/ip-addresses/?present_in_vrf_id=${vrfB.id}`))).to.deep.equal([ib.id]);
      const unknown = await get("/api/ipam/prefixes/?present_in_vrf=9:9");
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.have.property("present_in_vrf");
      // A route target in use is still deletable: its links go with it.
      expect((await del(`/api/ipam/route-targets/${rt1.id}/`)).status).to.equal(204);
      expect((await get(`/api/ipam/vrfs/${vrfA.id}/`)).body.import_targets).to.deep.equal([]);
      expect(ids(await get(`/api/ipam/prefixes/?present_in_vrf=${vrfA.rd}`))).to.deep.equal([pa.id]);
    });
  });

  it("a VRF that enforces unique space holds each prefix once; other VRFs and the global table repeat them", async () => {
    const strict = (await post("/api/ipam/vrfs/", { name: `${uniq("dup")}-strict`, rd: `${process.pid % 60000}:88` })).body;
    const lax = (await post("/api/ipam/vrfs/", { name: `${uniq("dup")}-lax`, enforce_unique: false })).body;
    const prefix = (vrf: any, p = "100.126.1.0/24") => post("/api/ipam/prefixes/", { prefix: p, status: "active", vrf: vrf?.id ?? null });
    const first = (await prefix(strict)).body;
    const again = await prefix(strict, "100.126.1.9/24");
    expect([again.status, again.body]).to.deep.equal([400, { prefix: [`Duplicate prefix found in VRF ${strict.name} (${strict.rd}): 100.126.1.0/24`] }]);
    expect((await prefix(strict, "100.126.1.0/25")).status).to.equal(201);
    for (const vrf of [lax, lax, null, null]) expect((await prefix(vrf)).status).to.equal(201);
    const moved = (await prefix(lax, "100.126.2.0/24")).body;
    const into = await patch(`/api/ipam/prefixes/${moved.id}/`, { vrf: strict.id, prefix: "100.126.1.0/24" });
    expect([into.status, into.body]).to.deep.equal([400, { prefix: [`Duplicate prefix found in VRF ${strict.name} (${strict.rd}): 100.126.1.0/24`] }]);
    expect((await patch(`/api/ipam/prefixes/${first.id}/`, { description: "itself is no duplicate" })).status).to.equal(200);
    expect(await rows("ipam_prefix", { vrf_id: strict.id, prefix: "100.126.1.0/24" })).to.equal(1);
  });

  describe("VLAN groups, VLANs and prefixes on them", () => {
    let site: any, other: any, campus: any, floor: any, shed: any, group: any, role: any, tenant: any;

    before(async () => {
      site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
      other = (await post("/api/dcim/sites/", { name: `${tag}-other`, status: "active" })).body;
      const ipam = ["ipam.vlan", "ipam.vlangroup", "ipam.prefix"];
      const campusType = (await post("/api/dcim/location-types/", { name: `${tag} Campus`, content_types: ipam })).body;
      const floorType = (await post("/api/dcim/location-types/", { name: `${tag} Floor`, parent: campusType.id, content_types: ipam })).body;
      const shedType = (await post("/api/dcim/location-types/", { name: `${tag} Shed`, content_types: ["dcim.rack"] })).body;
      campus = (await post("/api/dcim/locations/", { name: `${tag} North`, location_type: campusType.id, site: site.id, status: "active" })).body;
      floor = (await post("/api/dcim/locations/", { name: `${tag} F1`, location_type: floorType.id, parent: campus.id, status: "active" })).body;
      shed = (await post("/api/dcim/locations/", { name: `${tag} Shed`, location_type: shedType.id, site: site.id, status: "active" })).body;
      role = (await post("/api/ipam/roles/", { name: `${tag}-users` })).body;
      tenant = (await post("/api/tenancy/tenants/", { name: `${tag}-vlan-tenant` })).body;
    });

    it("VLAN groups: unique name and slug per site, anywhere without one; placed by the location rules", async () => {
      const g = await post("/api/ipam/vlan-groups/", { name: `${tag} Core`, site: site.id, location: floor.id });
      expect(g.status, g.text).to.equal(201);
      group = g.body;
      expect(group).to.deep.include({ slug: `${tag}-core`, vlan_count: 0, description: "", display: `${tag} Core` });
      expect(group.location.id).to.equal(floor.id);
      const twice = await post("/api/ipam/vlan-groups/", { name: `${tag} Core`, site: site.id });
      expect([twice.status, twice.body]).to.deep.equal([400, { non_field_errors: ["The fields site, name must make a unique set."] }]);
      const slug = await post("/api/ipam/vlan-groups/", { name: `${tag} Core 2`, slug: group.slug, site: site.id });
      expect([slug.status, slug.body]).to.deep.equal([400, { non_field_errors: ["The fields site, slug must make a unique set."] }]);
      expect((await post("/api/ipam/vlan-groups/", { name: `${tag} Core`, site: other.id })).status).to.equal(201);
      // Without a site, as in Nautobot 1.x, names may repeat.
      expect((await post("/api/ipam/vlan-groups/", { name: `${tag} Free` })).status).to.equal(201);
      expect((await post("/api/ipam/vlan-groups/", { name: `${tag} Free` })).status).to.equal(201);

      const before = await rows("ipam_vlangroup");
      const elsewhere = await post("/api/ipam/vlan-groups/", { name: `${tag} X`, site: other.id, location: campus.id });
      expect([elsewhere.status, elsewhere.body]).to.deep.equal([400, { location: [`Location "${campus.name}" does not belong to site "${other.name}".`] }]);
      const kind = await post("/api/ipam/vlan-groups/", { name: `${tag} X`, site: site.id, location: shed.id });
      expect([kind.status, kind.body]).to.deep.equal([400, { location: [`VLAN groups may not associate to locations of type "${tag} Shed".`] }]);
      expect(await rows("ipam_vlangroup")).to.equal(before);

      expect(ids(await get(`/api/ipam/vlan-groups/?site=${site.slug}`))).to.deep.equal([group.id]);
      expect(ids(await get(`/api/ipam/vlan-groups/?location=${campus.slug}&q=${tag}`))).to.deep.equal([group.id]);
      expect((await get(`/api/ipam/vlan-groups/?q=${tag}-free`)).body.count).to.equal(2);
    });

    it("VLANs: shapes, counts, and Nautobot's range, uniqueness, group and location rules", async () => {
      const v = await post("/api/ipam/vlans/", {
        vid: 100, name: "users", site: site.id, location: floor.id, group: { slug: group.slug, site: site.id }, status: "active",
        role: role.id, tenant: tenant.id, description: "office",
      });
      expect(v.status, v.text).to.equal(201);
      expect(v.body).to.deep.include({ vid: 100, name: "users", display: "users (100)", description: "office", prefix_count: 0 });
      expect(v.body.status).to.deep.equal({ value: "active", label: "Active" });
      expect(v.body.group).to.deep.equal({ id: group.id, url: group.url, display: group.name, name: group.name, slug: group.slug });
      expect(Object.keys(v.body.role).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
      expect((await get(`/api/ipam/vlans/${v.body.id}/?brief=1`)).body).to.deep.equal({ id: v.body.id, url: v.body.url, display: "users (100)", vid: 100, name: "users" });
      expect((await get(`/api/ipam/vlan-groups/${group.id}/?brief=1`)).body.vlan_count).to.equal(1);
      expect((await get(`/api/ipam/roles/${role.id}/`)).body.vlan_count).to.equal(1);
      expect((await get(`/api/ipam/roles/${role.id}/?brief=1`)).body).to.include({ prefix_count: 0, vlan_count: 1 });
      expect((await get(`/api/tenancy/tenants/${tenant.id}/`)).body.vlan_count).to.equal(1);
      expect((await get(`/api/dcim/sites/${site.id}/`)).body.vlan_count).to.equal(1);

      const before = await rows("ipam_vlan");
      const cases: Array<[Record<string, unknown>, unknown]> = [
        [{ vid: 0 }, { vid: ["Ensure this value is greater than or equal to 1."] }],
        [{ vid: 4095 }, { vid: ["Ensure this value is less than or equal to 4094."] }],
        [{ vid: 100, name: "other", group: group.id, site: site.id }, { non_field_errors: ["The fields group, vid must make a unique set."] }],
        [{ vid: 101, name: "users", group: group.id, site: site.id }, { non_field_errors: ["The fields group, name must make a unique set."] }],
        [{ group: group.id, site: other.id }, { group: [`VLAN group must belong to the assigned site (${other.name}).`] }],
        [{ group: group.id }, { group: ["VLAN group must belong to the assigned site (None)."] }],
        [{ site: other.id, location: campus.id }, { location: [`Location "${campus.name}" does not belong to site "${other.name}".`] }],
        [{ site: site.id, location: shed.id }, { location: [`VLANs may not associate to locations of type "${tag} Shed".`] }],
        [{ site: site.id, location: campus.id, group: group.id }, { group: [`The assigned group belongs to a location that does not include location "${campus.name}".`] }],
      ];
      for (const [data, body] of cases) {
        const reply = await post("/api/ipam/vlans/", { vid: 200, name: "x", status: "active", ...data });
        expect([data, reply.status, reply.body]).to.deep.equal([data, 400, body]);
      }
      const loose = await patch(`/api/ipam/vlans/${v.body.id}/`, { site: other.id, location: null });
      expect([loose.status, loose.body]).to.deep.equal([400, { group: [`VLAN group must belong to the assigned site (${other.name}).`] }]);
      expect(await rows("ipam_vlan")).to.equal(before);
      // Outside a group, ids and names repeat freely; a VLAN at a location below its group's is fine.
      expect((await post("/api/ipam/vlans/", { vid: 100, name: "users", status: "reserved" })).status).to.equal(201);
      expect((await post("/api/ipam/vlans/", { vid: 100, name: "users", status: "reserved" })).status).to.equal(201);
      const at = await post("/api/ipam/vlan-groups/", { name: `${tag} Campus-wide`, site: site.id, location: campus.id });
      expect((await post("/api/ipam/vlans/", { vid: 7, name: "floor", site: site.id, location: floor.id, group: at.body.id, status: "active" })).status).to.equal(201);
      // A group holding VLANs is protected.
      expect((await del(`/api/ipam/vlan-groups/${group.id}/`)).status).to.equal(409);
    });

    it("filters VLANs as Nautobot's VLANFilterSet", async () => {
      const [users] = (await get(`/api/ipam/vlans/?group=${group.slug}`)).body.results;
      const free = await post("/api/ipam/vlans/", { vid: 3000, name: `${tag}-free`, status: "deprecated", description: "guest wifi" });
      const away = await post("/api/ipam/vlans/", { vid: 3001, name: `${tag}-away`, site: other.id, status: "active" });
      expect(ids(await get(`/api/ipam/vlans/?group_id=${group.id}`))).to.deep.equal([users.id]);
      expect(ids(await get(`/api/ipam/vlans/?site=${site.slug}&vid=100`))).to.deep.equal([users.id]);
      expect(ids(await get(`/api/ipam/vlans/?location=${campus.slug}&vid=100`))).to.deep.equal([users.id]);
      expect(ids(await get(`/api/ipam/vlans/?role=${role.slug}`))).to.deep.equal([users.id]);
      expect(ids(await get(`/api/ipam/vlans/?role_id=${role.id}&tenant=${tenant.slug}&status=active`))).to.deep.equal([users.id]);
      expect(ids(await get(`/api/ipam/vlans/?q=${tag}&vid__gte=3000`))).to.deep.equal(sorted(free.body.id, away.body.id));
      expect(ids(await get("/api/ipam/vlans/?q=3000"))).to.deep.equal([free.body.id]);
      // A number beyond the vid column's range is no error, only no match.
      expect((await get("/api/ipam/vlans/?q=99999999999")).body.count).to.equal(0);
      expect(ids(await get("/api/ipam/vlans/?q=GUEST"))).to.deep.equal([free.body.id]);
      expect(ids(await get(`/api/ipam/vlans/?q=${tag}-away`))).to.deep.equal([away.body.id]);

      const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
      const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-box` })).body;
      const devRole = (await post("/api/dcim/device-roles/", { name: `${tag}-edge` })).body;
      const device = (await post("/api/dcim/devices/", { name: `${tag}-sw`, device_type: type.id, device_role: devRole.id, site: other.id, status: "active" })).body;
      // Available on a device: its site's VLANs and those of no site.
      const available = ids(await get(`/api/ipam/vlans/?available_on_device=${device.id}&limit=0`));
      expect(available).to.include.members([free.body.id, away.body.id]);
      expect(available).to.not.include(users.id);
      expect((await get("/api/ipam/vlans/?available_on_device=00000000-0000-4000-8000-000000000000")).body.count).to.equal(0);
    });

    it("prefixes take a VLAN and a location (placed by the location rules) and filter by them", async () => {
      const [users] = (await get(`/api/ipam/vlans/?group=${group.slug}`)).body.results;
      const p = await post("/api/ipam/prefixes/", { prefix: "100.100.0.0/24", status: "active", site: site.id, location: floor.id, vlan: users.id });
      expect(p.status, p.text).to.equal(201);
      expect(p.body.vlan).to.deep.equal({ id: users.id, url: users.url, display: "users (100)", vid: 100, name: "users" });
      expect(p.body.location.id).to.equal(floor.id);
      expect((await get(`/api/ipam/vlans/${users.id}/`)).body.prefix_count).to.equal(1);
      expect(ids(await get(`/api/ipam/prefixes/?vlan_id=${users.id}`))).to.deep.equal([p.body.id]);
      expect(ids(await get("/api/ipam/prefixes/?vlan_vid=100"))).to.deep.equal([p.body.id]);
      expect(ids(await get(`/api/ipam/prefixes/?location=${campus.slug}`))).to.deep.equal([p.body.id]);

      const elsewhere = await post("/api/ipam/prefixes/", { prefix: "100.100.1.0/24", status: "active", site: other.id, location: floor.id });
      expect([elsewhere.status, elsewhere.body]).to.deep.equal([400, { location: [`Location "${floor.name}" does not belong to site "${other.name}".`] }]);
      const kind = await patch(`/api/ipam/prefixes/${p.body.id}/`, { location: shed.id });
      expect([kind.status, kind.body]).to.deep.equal([400, { location: [`Prefixes may not associate to locations of type "${tag} Shed".`] }]);
      // A VLAN with prefixes is protected.
      expect((await del(`/api/ipam/vlans/${users.id}/`)).status).to.equal(409);
    });
  });
});
