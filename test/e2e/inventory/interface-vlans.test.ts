// VLAN membership of device and VM interfaces over HTTP, as Nautobot 1.5.24 answers API 1.2/1.3:
// `untagged_vlan` and `tagged_vlans` after `mode`; the serializers' tagged-VLAN rules (the
// parent's site or global, tagged mode only, cleared before leaving it), the model's (an untagged
// VLAN needs a mode; a device interface's is of the device's site or global, a VM interface's is
// not checked), sites only, never locations; the filters of both interface kinds; and a deleted
// VLAN leaving no trace on interfaces.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { call, del, get, patch, post } from "../../support/http.js";
import { MISSING_ID, uniq } from "./support.js";

// The keys of a create's reply, opt-in relationships included.
const DEVICE_KEYS = [
  "id", "display", "url", "device", "name", "label", "type", "enabled", "parent_interface", "bridge", "lag", "mtu", "mac_address",
  "mgmt_only", "description", "mode", "untagged_vlan", "tagged_vlans", "cable", "cable_peer", "cable_peer_type", "connected_endpoint",
  "connected_endpoint_type", "connected_endpoint_reachable", "count_ipaddresses", "created", "last_updated", "tags", "notes_url", "custom_fields",
  "computed_fields", "relationships",
];
const VM_KEYS = [
  "id", "display", "url", "virtual_machine", "name", "enabled", "parent_interface", "bridge", "mtu", "mac_address", "description",
  "mode", "untagged_vlan", "tagged_vlans", "tags", "notes_url", "custom_fields", "computed_fields", "relationships",
];

describe("inventory e2e: interface VLANs", () => {
  const tag = uniq("ifv").toLowerCase();
  let siteA: any, siteB: any, hall: any, room: any, devA: any, devB: any, vmA: any, vmB: any, vmNowhere: any;
  let global: any, lowA: any, highA: any, inRoom: any, atB: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  const nested = (v: any) => ({ id: v.id, url: v.url, display: v.display, vid: v.vid, name: v.name });
  const kinds = {
    device: { list: "/api/dcim/interfaces/", table: "dcim_interface", parent: "device", noun: "device" },
    vm: { list: "/api/virtualization/interfaces/", table: "virtualization_vminterface", parent: "virtual_machine", noun: "virtual machine" },
  } as const;
  type Kind = keyof typeof kinds;
  const create = (kind: Kind, owner: any, body: Record<string, unknown>) =>
    post(kinds[kind].list, { [kinds[kind].parent]: owner.id, name: uniq("if"), ...(kind === "device" ? { type: "1000base-t" } : {}), ...body });
  const make = async (kind: Kind, owner: any, body: Record<string, unknown>) => {
    const res = await create(kind, owner, body);
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  /** What the database holds for an interface: its untagged VLAN and its tagged ones, by id. */
  const stored = async (kind: Kind, id: string) => {
    const { db } = await startTestServer();
    const row = await db(kinds[kind].table).where({ id }).first("untagged_vlan_id", "mode");
    const tagged = (await db(`${kinds[kind].table}_tagged_vlans`).where({ source_id: id }).pluck("vlan_id")).map(String).sort();
    return { mode: row.mode, untagged: row.untagged_vlan_id ?? null, tagged };
  };
  const sorted = (...vlans: any[]) => vlans.map((v) => v.id).sort();

  before(async () => {
    siteA = await made("/api/dcim/sites/", { name: `${tag}-a`, status: "active" });
    siteB = await made("/api/dcim/sites/", { name: `${tag}-b`, status: "active" });
    const floor = await made("/api/dcim/location-types/", { name: `${tag} Floor`, content_types: ["dcim.device", "ipam.vlan"] });
    hall = await made("/api/dcim/locations/", { name: `${tag}-hall`, location_type: floor.id, site: siteA.id, status: "active" });
    room = await made("/api/dcim/locations/", { name: `${tag}-room`, location_type: floor.id, site: siteA.id, status: "active" });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: "Switch" });
    const role = await made("/api/dcim/device-roles/", { name: `${tag}-role` });
    const device = (name: string, site: any, extra = {}) =>
      made("/api/dcim/devices/", { name, device_type: type.id, device_role: role.id, site: site.id, status: "active", ...extra });
    devA = await device(`${tag}-a1`, siteA, { location: hall.id });
    devB = await device(`${tag}-b1`, siteB);
    const ctype = await made("/api/virtualization/cluster-types/", { name: `${tag} KVM` });
    const clusterA = await made("/api/virtualization/clusters/", { name: `${tag}-ca`, type: ctype.id, site: siteA.id });
    const clusterB = await made("/api/virtualization/clusters/", { name: `${tag}-cb`, type: ctype.id, site: siteB.id });
    const nowhere = await made("/api/virtualization/clusters/", { name: `${tag}-cn`, type: ctype.id });
    vmA = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vma`, cluster: clusterA.id, status: "active" });
    vmB = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vmb`, cluster: clusterB.id, status: "active" });
    vmNowhere = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vmn`, cluster: nowhere.id, status: "active" });
    const vlan = (vid: number, name: string, extra = {}) => made("/api/ipam/vlans/", { vid, name: `${tag}-${name}`, status: "active", ...extra });
    global = await vlan(3901, "global");
    lowA = await vlan(3902, "low-a", { site: siteA.id });
    highA = await vlan(3903, "high-a", { site: siteA.id });
    inRoom = await vlan(3904, "room", { site: siteA.id, location: room.id });
    atB = await vlan(3905, "b", { site: siteB.id });
  });

  describe("shapes", () => {
    for (const kind of ["device", "vm"] as const) {
      it(`${kind} interfaces: untagged_vlan nested and tagged_vlans listed after mode, alike in API 1.2 and 1.3`, async () => {
        const owner = kind === "device" ? devA : vmA;
        const res = await create(kind, owner, { mode: "tagged", untagged_vlan: global.id, tagged_vlans: [highA.id, lowA.id, highA.id] });
        expect(res.status, res.text).to.equal(201);
        expect(Object.keys(res.body)).to.deep.equal(kind === "device" ? DEVICE_KEYS : VM_KEYS);
        expect(res.body.mode).to.deep.equal({ value: "tagged", label: "Tagged" });
        expect(res.body.untagged_vlan).to.deep.equal(nested(global));
        // Once each, in the VLANs' own order (site, group, vid).
        expect(res.body.tagged_vlans).to.deep.equal([nested(lowA), nested(highA)]);
        expect(await stored(kind, res.body.id)).to.deep.equal({ mode: "tagged", untagged: global.id, tagged: sorted(lowA, highA) });
        for (const version of ["1.2", "1.3"]) {
          const read = await get(`${kinds[kind].list}${res.body.id}/?include=computed_fields,relationships`, { headers: { Accept: `application/json; version=${version}` } });
          expect(read.headers.get("api-version")).to.equal(version);
          expect(Object.keys(read.body), version).to.deep.equal(Object.keys(res.body));
          expect([read.body.untagged_vlan, read.body.tagged_vlans], version).to.deep.equal([res.body.untagged_vlan, res.body.tagged_vlans]);
        }
        const brief = await get(`${kinds[kind].list}${res.body.id}/?brief=1`);
        expect(brief.body).to.not.have.property("tagged_vlans");
        // Attribute dictionaries name VLANs too; a list replaces the set, an empty one clears it.
        const byAttrs = await patch(`${kinds[kind].list}${res.body.id}/`, { untagged_vlan: { vid: 3902, site: siteA.id }, tagged_vlans: [{ name: `${tag}-global` }] });
        expect(byAttrs.status, byAttrs.text).to.equal(200);
        expect([byAttrs.body.untagged_vlan, byAttrs.body.tagged_vlans]).to.deep.equal([nested(lowA), [nested(global)]]);
        const cleared = await patch(`${kinds[kind].list}${res.body.id}/`, { untagged_vlan: null, tagged_vlans: [] });
        expect([cleared.body.untagged_vlan, cleared.body.tagged_vlans]).to.deep.equal([null, []]);
        expect(await stored(kind, res.body.id)).to.deep.equal({ mode: "tagged", untagged: null, tagged: [] });
        // Without VLANs given: none, both versions' writes alike.
        const bare = await post(kinds[kind].list, { [kinds[kind].parent]: owner.id, name: uniq("if"), ...(kind === "device" ? { type: "virtual" } : {}) },
          { headers: { Accept: "application/json; version=1.3" } });
        expect([bare.status, bare.body.mode, bare.body.untagged_vlan, bare.body.tagged_vlans]).to.deep.equal([201, null, null, []]);
      });
    }

    it("OPTIONS and the OpenAPI documents describe both fields on both endpoints", async () => {
      for (const kind of ["device", "vm"] as const) {
        const options = await call("OPTIONS", kinds[kind].list);
        const fields = options.body.actions.POST;
        expect(fields.untagged_vlan).to.include({ type: "nested object", required: false, read_only: false, label: "Untagged vlan" });
        expect(Object.keys(fields.untagged_vlan.children)).to.deep.equal(["id", "url", "display", "vid", "name"]);
        expect(fields.tagged_vlans).to.include({ type: "field", required: false, read_only: false, label: "Tagged vlans" });
        const names = Object.keys(fields);
        expect(names.slice(names.indexOf("mode"), names.indexOf("mode") + 3)).to.deep.equal(["mode", "untagged_vlan", "tagged_vlans"]);
      }
      for (const version of ["1.2", "1.3"]) {
        const schemas = (await get(`/api/swagger.json?api_version=${version}`)).body.components.schemas;
        for (const name of ["Interface", "VMInterface"]) {
          expect(schemas[name].properties.untagged_vlan, `${version} ${name}`).to.deep.equal({ anyOf: [{ $ref: "#/components/schemas/NestedVLAN" }, { type: "null" }] });
          expect(schemas[name].properties.tagged_vlans, `${version} ${name}`).to.deep.equal({ type: "array", items: { $ref: "#/components/schemas/NestedVLAN" } });
          expect(schemas[`PatchedWritable${name}Request`].properties, `${version} ${name}`).to.include.keys("untagged_vlan", "tagged_vlans");
        }
      }
    });
  });

  describe("rules", () => {
    for (const kind of ["device", "vm"] as const) {
      const owner = () => (kind === "device" ? devA : vmA);
      const at = (x: any) => `${kinds[kind].list}${x.id}/`;

      it(`${kind} interfaces: an untagged VLAN needs a mode, on create and when a write clears the mode`, async () => {
        const before = await stored(kind, (await make(kind, owner(), { mode: "access", untagged_vlan: lowA.id })).id);
        expect(before).to.deep.equal({ mode: "access", untagged: lowA.id, tagged: [] });
        const missing = { untagged_vlan: ["Mode must be set when specifying untagged_vlan"] };
        const name = uniq("if");
        for (const mode of [undefined, "", null]) {
          const res = await create(kind, owner(), { name, untagged_vlan: lowA.id, ...(mode === undefined ? {} : { mode }) });
          expect([res.status, res.body], String(mode)).to.deep.equal([400, missing]);
        }
        const { db } = await startTestServer();
        expect(await db(kinds[kind].table).where({ name }).first()).to.equal(undefined);
        const iface = await make(kind, owner(), { mode: "access", untagged_vlan: lowA.id });
        for (const mode of ["", null]) {
          const res = await patch(at(iface), { mode });
          expect([res.status, res.body]).to.deep.equal([400, missing]);
        }
        expect(await stored(kind, iface.id)).to.deep.equal({ mode: "access", untagged: lowA.id, tagged: [] });
        const both = await patch(at(iface), { mode: "", untagged_vlan: null });
        expect([both.status, both.body.mode, both.body.untagged_vlan]).to.deep.equal([200, null, null]);
        // Any mode carries an untagged VLAN.
        for (const mode of ["tagged", "tagged-all", "access"]) expect((await patch(at(iface), { mode, untagged_vlan: global.id })).status, mode).to.equal(200);
      });

      it(`${kind} interfaces: tagged VLANs only in tagged mode, cleared by the write that leaves it`, async () => {
        const only = { tagged_vlans: ["Mode must be set to tagged when specifying tagged_vlans"] };
        for (const mode of [undefined, "", "access", "tagged-all"]) {
          const res = await create(kind, owner(), { tagged_vlans: [lowA.id], ...(mode === undefined ? {} : { mode }) });
          expect([res.status, res.body], String(mode)).to.deep.equal([400, only]);
        }
        // An empty list asks for nothing.
        expect((await create(kind, owner(), { mode: "access", tagged_vlans: [] })).status).to.equal(201);
        const iface = await make(kind, owner(), { mode: "tagged", tagged_vlans: [lowA.id, global.id] });
        const cases: Array<[Record<string, unknown>, unknown]> = [
          [{ mode: "access" }, { tagged_vlans: ["Clear tagged_vlans to set mode to access"] }],
          [{ mode: "tagged-all" }, { tagged_vlans: ["Clear tagged_vlans to set mode to tagged-all"] }],
          [{ mode: "" }, { tagged_vlans: ["Clear tagged_vlans to set mode to "] }],
          [{ mode: null }, { tagged_vlans: ["Clear tagged_vlans to set mode to "] }],
          [{ mode: "access", tagged_vlans: [lowA.id] }, only],
        ];
        for (const [body, errors] of cases) {
          const res = await patch(at(iface), body);
          expect([body, res.status, res.body]).to.deep.equal([body, 400, errors]);
        }
        expect(await stored(kind, iface.id)).to.deep.equal({ mode: "tagged", untagged: null, tagged: sorted(lowA, global) });
        // In tagged mode, other writes keep the set.
        expect((await patch(at(iface), { description: "uplink" })).body.tagged_vlans).to.have.length(2);
        const left = await patch(at(iface), { mode: "tagged-all", tagged_vlans: [] });
        expect([left.status, left.body.mode, left.body.tagged_vlans]).to.deep.equal([200, { value: "tagged-all", label: "Tagged (All)" }, []]);
        expect(await stored(kind, iface.id)).to.deep.equal({ mode: "tagged-all", untagged: null, tagged: [] });
        // With none left, the mode changes freely.
        expect((await patch(at(iface), { mode: "access" })).status).to.equal(200);
      });

      it(`${kind} interfaces: each tagged VLAN of the parent's site or global, judged before the mode`, async () => {
        const foreign = { tagged_vlans: [`VLAN ${atB.display} must belong to the same site as the interface's parent ${kinds[kind].noun}, or it must be global.`] };
        const res = await create(kind, owner(), { mode: "tagged", tagged_vlans: [global.id, atB.id] });
        expect([res.status, res.body]).to.deep.equal([400, foreign]);
        const first = await create(kind, owner(), { mode: "access", tagged_vlans: [atB.id] });
        expect([first.status, first.body]).to.deep.equal([400, foreign]);
        const iface = await make(kind, owner(), { mode: "tagged", tagged_vlans: [lowA.id] });
        const changed = await patch(at(iface), { tagged_vlans: [atB.id, lowA.id] });
        expect([changed.status, changed.body]).to.deep.equal([400, foreign]);
        expect(await stored(kind, iface.id)).to.deep.equal({ mode: "tagged", untagged: null, tagged: [lowA.id] });
        // Sites decide, not locations: a VLAN at another location of the same site is fine.
        expect((await patch(at(iface), { tagged_vlans: [inRoom.id, global.id] })).status).to.equal(200);
        // The site is the one the interface had before the write, as Nautobot reads it from the instance.
        const other = kind === "device" ? devB : vmB;
        const moved = await patch(at(iface), { [kinds[kind].parent]: other.id, tagged_vlans: [atB.id] });
        expect([moved.status, moved.body]).to.deep.equal([400, foreign]);
        const kept = await patch(at(iface), { [kinds[kind].parent]: other.id, tagged_vlans: [lowA.id] });
        expect([kept.status, kept.body[kinds[kind].parent].id, kept.body.tagged_vlans]).to.deep.equal([200, other.id, [nested(lowA)]]);
      });

      it(`${kind} interfaces: VLANs that name nothing are refused in DRF's words`, async () => {
        const cases: Array<[Record<string, unknown>, unknown]> = [
          [{ tagged_vlans: [MISSING_ID] }, { tagged_vlans: [`Invalid pk "${MISSING_ID}" - object does not exist.`] }],
          [{ tagged_vlans: ["vlan-10"] }, { tagged_vlans: ["\u201cvlan-10\u201d is not a valid UUID."] }],
          [{ tagged_vlans: [true] }, { tagged_vlans: ["Incorrect type. Expected pk value, received bool."] }],
          [{ tagged_vlans: [null] }, { tagged_vlans: ['Invalid pk "None" - object does not exist.'] }],
          [{ tagged_vlans: [lowA.id, 10] }, { tagged_vlans: ['Invalid pk "10" - object does not exist.'] }],
          [{ tagged_vlans: lowA.id }, { tagged_vlans: ['Expected a list of items but got type "str".'] }],
          [{ tagged_vlans: [{ vid: 4000 }] }, { tagged_vlans: ["Related object not found using the provided attributes: {'vid': 4000}"] }],
          [{ untagged_vlan: MISSING_ID }, { untagged_vlan: [`Related object not found using the provided ID: ${MISSING_ID}`] }],
        ];
        for (const [body, errors] of cases) {
          const res = await create(kind, owner(), { mode: "tagged", ...body });
          expect([body, res.status, res.body]).to.deep.equal([body, 400, errors]);
        }
      });
    }

    it("device interfaces: the untagged VLAN is of the device's site or global, checked among Interface.clean's rules", async () => {
      const foreign = { untagged_vlan: [`The untagged VLAN (${atB.display}) must belong to the same site as the interface's parent device, or it must be global.`] };
      const res = await create("device", devA, { mode: "access", untagged_vlan: atB.id });
      expect([res.status, res.body]).to.deep.equal([400, foreign]);
      const iface = await make("device", devA, { mode: "access", untagged_vlan: lowA.id });
      const changed = await patch(`/api/dcim/interfaces/${iface.id}/`, { untagged_vlan: atB.id });
      expect([changed.status, changed.body]).to.deep.equal([400, foreign]);
      // Judged against the device the write leaves it on.
      const moved = await patch(`/api/dcim/interfaces/${iface.id}/`, { device: devB.id });
      expect([moved.status, moved.body]).to.deep.equal([400, { untagged_vlan: [`The untagged VLAN (${lowA.display}) must belong to the same site as the interface's parent device, or it must be global.`] }]);
      expect(await stored("device", iface.id)).to.deep.equal({ mode: "access", untagged: lowA.id, tagged: [] });
      // Sites alone: the device is in the hall, the VLAN in the room.
      expect((await patch(`/api/dcim/interfaces/${iface.id}/`, { untagged_vlan: inRoom.id })).status).to.equal(200);
      // The mode comes first; the LAG rule before the site.
      const modeless = await create("device", devA, { untagged_vlan: atB.id });
      expect([modeless.status, modeless.body]).to.deep.equal([400, { untagged_vlan: ["Mode must be set when specifying untagged_vlan"] }]);
      const lag = await make("device", devB, { type: "lag" });
      const both = await create("device", devA, { mode: "access", untagged_vlan: atB.id, lag: lag.id });
      expect([both.status, both.body]).to.deep.equal([400, { lag: [`The selected LAG interface (${lag.name}) belongs to a different device (${devB.name}).`] }]);
    });

    it("VM interfaces: the untagged VLAN's site is not checked (VMInterface has no clean of its own)", async () => {
      const iface = await make("vm", vmA, { mode: "access", untagged_vlan: atB.id });
      expect(iface.untagged_vlan).to.deep.equal(nested(atB));
      // A VM whose cluster has no site takes only global tagged VLANs.
      const foreign = { tagged_vlans: [`VLAN ${lowA.display} must belong to the same site as the interface's parent virtual machine, or it must be global.`] };
      const res = await create("vm", vmNowhere, { mode: "tagged", tagged_vlans: [lowA.id] });
      expect([res.status, res.body]).to.deep.equal([400, foreign]);
      expect((await create("vm", vmNowhere, { mode: "tagged", untagged_vlan: lowA.id, tagged_vlans: [global.id] })).status).to.equal(201);
    });
  });

  describe("filters and deletion", () => {
    let devTagged: any, devUntagged: any, devBare: any, vmTagged: any, vmUntagged: any, vmBare: any;
    let fv1: any, fv2: any;

    before(async () => {
      // VLANs of their own, so the numbers are this suite's alone.
      fv1 = await made("/api/ipam/vlans/", { vid: 3911, name: `${tag}-f1`, status: "active", site: siteA.id });
      fv2 = await made("/api/ipam/vlans/", { vid: 3912, name: `${tag}-f2`, status: "active" });
      devTagged = await make("device", devB, { mode: "tagged", untagged_vlan: fv2.id, tagged_vlans: [fv2.id] });
      devUntagged = await make("device", devA, { mode: "access", untagged_vlan: fv1.id });
      devBare = await make("device", devA, {});
      vmTagged = await make("vm", vmNowhere, { mode: "tagged", untagged_vlan: fv2.id, tagged_vlans: [fv2.id] });
      vmUntagged = await make("vm", vmA, { mode: "access", untagged_vlan: fv1.id });
      vmBare = await make("vm", vmA, {});
    });

    const found = async (path: string) => {
      const res = await get(path);
      expect(res.status, `${path} ${res.text}`).to.equal(200);
      return res.body.results.map((r: any) => r.id).sort();
    };
    const idsOf = (...xs: any[]) => xs.map((x) => x.id).sort();

    it("device interfaces: untagged_vlan and tagged_vlans (id or VID), has_tagged_vlans, vlan_id and vlan", async () => {
      const scope = `/api/dcim/interfaces/?device_id=${devA.id}&device_id=${devB.id}`;
      expect(await found(`${scope}&untagged_vlan=${fv1.id}`)).to.deep.equal(idsOf(devUntagged));
      expect(await found(`${scope}&untagged_vlan=3911&untagged_vlan=3912`)).to.deep.equal(idsOf(devUntagged, devTagged));
      expect(await found(`${scope}&untagged_vlan__n=3911&name=${devUntagged.name}&name=${devBare.name}`)).to.deep.equal(idsOf(devBare));
      expect(await found(`${scope}&tagged_vlans=3912`)).to.deep.equal(idsOf(devTagged));
      expect(await found(`${scope}&tagged_vlans=${fv2.id}`)).to.deep.equal(idsOf(devTagged));
      expect(await found(`${scope}&has_tagged_vlans=true&name=${devTagged.name}&name=${devBare.name}`)).to.deep.equal(idsOf(devTagged));
      expect(await found(`${scope}&has_tagged_vlans=false&name=${devTagged.name}&name=${devBare.name}`)).to.deep.equal(idsOf(devBare));
      // Untagged or tagged alike, each interface once.
      expect(await found(`${scope}&vlan_id=${fv2.id}`)).to.deep.equal(idsOf(devTagged));
      expect(await found(`${scope}&vlan_id=${fv1.id}`)).to.deep.equal(idsOf(devUntagged));
      expect(await found(`${scope}&vlan=3912`)).to.deep.equal(idsOf(devTagged));
      expect(await found(`${scope}&vlan=3911`)).to.deep.equal(idsOf(devUntagged));
      expect(await found(`${scope}&vlan=3999`)).to.deep.equal([]);
      const bad: Array<[string, unknown]> = [
        ["vlan=ten", { vlan: ["Enter a number."] }],
        ["vlan_id=ten", { vlan_id: ["Enter a valid UUID."] }],
        ["untagged_vlan=ten", { untagged_vlan: ["Select a valid choice. ten is not one of the available choices."] }],
        ["tagged_vlans=3999", { tagged_vlans: ["Select a valid choice. 3999 is not one of the available choices."] }],
        ["has_tagged_vlans=maybe", { has_tagged_vlans: ["Select a valid choice. maybe is not one of the available choices."] }],
      ];
      for (const [query, errors] of bad) {
        const res = await get(`/api/dcim/interfaces/?${query}`);
        expect([query, res.status, res.body]).to.deep.equal([query, 400, errors]);
      }
    });

    it("VM interfaces: untagged_vlan, tagged_vlans and has_tagged_vlans, and no vlan or vlan_id", async () => {
      const scope = `/api/virtualization/interfaces/?virtual_machine_id=${vmA.id}&virtual_machine_id=${vmNowhere.id}`;
      expect(await found(`${scope}&untagged_vlan=3911`)).to.deep.equal(idsOf(vmUntagged));
      expect(await found(`${scope}&untagged_vlan=${fv2.id}`)).to.deep.equal(idsOf(vmTagged));
      expect(await found(`${scope}&tagged_vlans=3912`)).to.deep.equal(idsOf(vmTagged));
      expect(await found(`${scope}&tagged_vlans__n=3912&name=${vmTagged.name}&name=${vmBare.name}`)).to.deep.equal(idsOf(vmBare));
      expect(await found(`${scope}&has_tagged_vlans=true&name=${vmTagged.name}&name=${vmBare.name}`)).to.deep.equal(idsOf(vmTagged));
      expect(await found(`${scope}&has_tagged_vlans=false&name=${vmTagged.name}&name=${vmBare.name}`)).to.deep.equal(idsOf(vmBare));
      for (const param of ["vlan", "vlan_id"]) {
        const res = await get(`/api/virtualization/interfaces/?${param}=${fv1.id}`);
        expect([res.status, res.body]).to.deep.equal([400, { [param]: ["Unknown filter field"] }]);
      }
    });

    it("deleting a VLAN empties untagged_vlan and takes it out of tagged_vlans, on both kinds", async () => {
      const keep = await made("/api/ipam/vlans/", { vid: 3913, name: `${tag}-keep`, status: "active" });
      const dev = await make("device", devA, { mode: "tagged", untagged_vlan: fv2.id, tagged_vlans: [fv2.id, keep.id] });
      const vm = await make("vm", vmA, { mode: "tagged", untagged_vlan: fv2.id, tagged_vlans: [keep.id, fv2.id] });
      const gone = await del(`/api/ipam/vlans/${fv2.id}/`);
      expect(gone.status, gone.text).to.equal(204);
      for (const [kind, iface] of [["device", dev], ["vm", vm]] as const) {
        const read = (await get(`${kinds[kind].list}${iface.id}/`)).body;
        expect([read.untagged_vlan, read.tagged_vlans], kind).to.deep.equal([null, [nested(keep)]]);
        expect(await stored(kind, iface.id), kind).to.deep.equal({ mode: "tagged", untagged: null, tagged: [keep.id] });
      }
      const { db } = await startTestServer();
      for (const table of ["dcim_interface_tagged_vlans", "virtualization_vminterface_tagged_vlans"]) {
        expect(await db(table).where({ vlan_id: fv2.id }).first(), table).to.equal(undefined);
      }
      expect(await db("dcim_interface").where({ untagged_vlan_id: fv2.id }).first()).to.equal(undefined);
      expect(await db("virtualization_vminterface").where({ untagged_vlan_id: fv2.id }).first()).to.equal(undefined);
    });
  });
});
