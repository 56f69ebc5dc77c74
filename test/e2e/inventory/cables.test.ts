// Cables and traced paths over HTTP: a cable records itself and its far end on both ends;
// interfaces joined through a patch panel pair (front/rear ports) see each other as their
// connected endpoint, and lose it when a cable in the middle goes; Nautobot's rules for what
// may be cabled, in its words; a device takes its cables along when deleted; power feeds
// from power panels, cabled to power ports.
import { expect } from "chai";
import { call, del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { row, rows, uniq } from "./support.js";

describe("inventory e2e: cables and paths", () => {
  const tag = uniq("cab").toLowerCase();
  let site: any, role: any, maker: any, region: any;

  async function device(name: string, ports: Record<string, Array<Record<string, unknown>>>): Promise<any> {
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-${name}` })).body;
    for (const [path, list] of Object.entries(ports)) {
      for (const body of list) {
        const res = await post(`/api/dcim/${path}-templates/`, { device_type: type.id, ...body });
        expect(res.status, res.text).to.equal(201);
        if (path === "rear-port") {
          const fronts = Number(body.positions ?? 1);
          for (let p = 1; p <= fronts; p++) {
            const front = await post("/api/dcim/front-port-templates/", {
              device_type: type.id, name: `F${String(body.name).slice(1)}-${p}`, type: "lc", rear_port: res.body.id, rear_port_position: p,
            });
            expect(front.status, front.text).to.equal(201);
          }
        }
      }
    }
    const dev = await post("/api/dcim/devices/", { name: `${tag}-${name}`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    expect(dev.status, dev.text).to.equal(201);
    return dev.body;
  }
  const port = async (path: string, dev: any, name: string) => (await get(`/api/dcim/${path}/?device_id=${dev.id}&name=${encodeURIComponent(name)}`)).body.results[0];
  const cable = (a: [string, string], b: [string, string], extra: Record<string, unknown> = {}) => post("/api/dcim/cables/", {
    termination_a_type: a[0], termination_a_id: a[1], termination_b_type: b[0], termination_b_id: b[1], status: "connected", ...extra,
  });

  before(async () => {
    region = (await post("/api/dcim/regions/", { name: `${tag}-region` })).body;
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active", region: region.id })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
  });

  it("a cable between two interfaces: each end shows the cable and its peer, and they are connected", async () => {
    const r1 = await device("r1", { interface: [{ name: "eth0", type: "1000base-t" }, { name: "lag0", type: "lag" }] });
    const r2 = await device("r2", { interface: [{ name: "eth0", type: "1000base-t" }] });
    const [a, b] = [await port("interfaces", r1, "eth0"), await port("interfaces", r2, "eth0")];
    expect(a).to.deep.include({ cable: null, cable_peer: null, cable_peer_type: null, connected_endpoint: null, connected_endpoint_type: null, connected_endpoint_reachable: null });
    const c = await cable(["dcim.interface", a.id], ["dcim.interface", b.id], { label: "X1", length: 3, length_unit: "m", color: "ff0000" });
    expect(c.status, c.text).to.equal(201);
    expect(c.body).to.deep.include({ termination_a_type: "dcim.interface", termination_a_id: a.id, label: "X1", display: "X1", length: 3 });
    expect(c.body.status).to.deep.equal({ value: "connected", label: "Connected" });
    expect(c.body.termination_b).to.deep.include({ id: b.id, name: "eth0", cable: c.body.id });
    expect(c.body.termination_b.device).to.deep.include({ id: r2.id, name: r2.name });

    const seen = (await get(`/api/dcim/interfaces/${a.id}/`)).body;
    expect(seen.cable).to.deep.include({ id: c.body.id, label: "X1", display: "X1" });
    expect(seen.cable_peer_type).to.equal("dcim.interface");
    expect(seen.cable_peer).to.deep.include({ id: b.id, name: "eth0", cable: c.body.id });
    expect(seen.connected_endpoint_type).to.equal("dcim.interface");
    expect(seen.connected_endpoint).to.deep.include({ id: b.id });
    expect(seen.connected_endpoint_reachable).to.equal(true);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).body.connected_endpoint.id).to.equal(a.id);

    // Filters: cabled and connected on ends; device (either end) on cables.
    expect((await get(`/api/dcim/interfaces/?device_id=${r1.id}&cabled=true`)).body.results.map((x: any) => x.name)).to.deep.equal(["eth0"]);
    expect((await get(`/api/dcim/interfaces/?device_id=${r1.id}&connected=false`)).body.results.map((x: any) => x.name)).to.deep.equal(["lag0"]);
    expect((await get(`/api/dcim/cables/?device=${r2.name}`)).body.results.map((x: any) => x.id)).to.deep.equal([c.body.id]);
    expect((await get(`/api/dcim/cables/?device_id=${r1.id}`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/cables/?site=${site.slug}&label=X1`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/cables/?region=${region.slug}&label=X1`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/cables/?region_id=${region.id}&label=X1`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/cables/?region__n=${region.slug}&label=X1`)).body.count).to.equal(0);

    // connected-device: from a peer's device and interface name to this side's device, in full.
    const found = await get(`/api/dcim/connected-device/?peer_device=${r2.name}&peer_interface=eth0`);
    expect(found.status).to.equal(200);
    expect(found.body).to.deep.include({ id: r1.id, name: r1.name });
    expect(found.body.device_type.id).to.equal(r1.device_type.id);
    const lonely = await call("GET", `/api/dcim/connected-device/?peer_device=${r1.name}&peer_interface=lag0`);
    expect([lonely.status, lonely.text]).to.deep.equal([200, ""]);
    const none = await get(`/api/dcim/connected-device/?peer_device=${r1.name}&peer_interface=nope`);
    expect([none.status, none.body]).to.deep.equal([404, { detail: "Not found." }]);
    expect((await get(`/api/dcim/connected-device/?peer_device=${r1.name}`)).body).to.deep.equal({ detail: 'Request must include "peer_device" and "peer_interface" filters.' });
    expect((await get("/api/dcim/")).body["connected-device"]).to.match(/\/api\/dcim\/connected-device\/$/);

    // Connections: each connected pair once (its lower id first), in Nautobot's shape, filtered
    // as Nautobot's filter set does: by that first interface's device.
    const first = a.id < b.id ? r1 : r2;
    expect((await get(`/api/dcim/interface-connections/?device=${first === r1 ? r2.name : r1.name}`)).body.count).to.equal(0);
    const pairs = await get(`/api/dcim/interface-connections/?device=${first.name}`);
    expect(pairs.status).to.equal(200);
    expect(pairs.body.count).to.equal(1);
    const [pair] = pairs.body.results;
    expect(Object.keys(pair).sort()).to.deep.equal(["connected_endpoint_reachable", "interface_a", "interface_b"]);
    expect([pair.interface_a.id, pair.interface_b.id]).to.deep.equal([a.id, b.id].sort());
    expect(pair.connected_endpoint_reachable).to.equal(true);
    expect((await get(`/api/dcim/interface-connections/?site=${site.slug}`)).body.count).to.equal(1);
    expect((await get("/api/dcim/interface-connections/?name=eth0")).status).to.equal(400);
    expect((await post("/api/dcim/interface-connections/", {})).status).to.equal(405);

    // The ends of a cable never change; its status may, and the path follows.
    const moved = await patch(`/api/dcim/cables/${c.body.id}/`, { termination_b_id: a.id });
    expect(moved.status).to.equal(400);
    expect(moved.body).to.deep.equal({ termination_b: ["Cable termination points may not be modified. Delete and recreate the cable instead."] });
    expect((await patch(`/api/dcim/cables/${c.body.id}/`, { status: "planned" })).status).to.equal(200);
    expect((await get(`/api/dcim/interfaces/${a.id}/`)).body.connected_endpoint_reachable).to.equal(false);
    expect((await patch(`/api/dcim/cables/${c.body.id}/`, { status: "connected" })).status).to.equal(200);
    expect((await get(`/api/dcim/interfaces/${a.id}/`)).body.connected_endpoint_reachable).to.equal(true);

    // Deleting the cable clears both ends.
    expect((await del(`/api/dcim/cables/${c.body.id}/`)).status).to.equal(204);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).body).to.deep.include({ cable: null, cable_peer: null, connected_endpoint: null, connected_endpoint_reachable: null });
    expect(await rows("dcim_cablepath", { origin_id: a.id })).to.equal(0);
  });

  it("a page shows each end's peer and endpoint as its detail does, the same interface or not", async () => {
    const left = await device("list-l", { interface: [{ name: "eth0", type: "1000base-t" }, { name: "eth1", type: "1000base-t" }] });
    const right = await device("list-r", { interface: [{ name: "eth0", type: "1000base-t" }], "rear-port": [{ name: "R1", type: "8p8c", positions: 1 }] });
    const far = await device("list-f", { interface: [{ name: "eth0", type: "1000base-t" }], "rear-port": [{ name: "R1", type: "8p8c", positions: 1 }] });
    const [a, b] = [await port("interfaces", left, "eth0"), await port("interfaces", right, "eth0")];
    expect((await cable(["dcim.interface", a.id], ["dcim.interface", b.id])).status).to.equal(201);
    // The other interface reaches its endpoint through a pair of panels: peer and endpoint differ.
    const [c, d] = [await port("interfaces", left, "eth1"), await port("interfaces", far, "eth0")];
    expect((await cable(["dcim.interface", c.id], ["dcim.frontport", (await port("front-ports", right, "F1-1")).id])).status).to.equal(201);
    expect((await cable(["dcim.rearport", (await port("rear-ports", right, "R1")).id], ["dcim.rearport", (await port("rear-ports", far, "R1")).id])).status).to.equal(201);
    expect((await cable(["dcim.frontport", (await port("front-ports", far, "F1-1")).id], ["dcim.interface", d.id])).status).to.equal(201);

    const ids = [a.id, b.id, c.id];
    const { status, body } = await get(`/api/dcim/interfaces/?${ids.map((id) => `id=${id}`).join("&")}`);
    expect(status).to.equal(200);
    const details = await Promise.all(ids.map(async (id) => (await get(`/api/dcim/interfaces/${id}/`)).body));
    const byId = (list: any[]) => Object.fromEntries(list.map((x) => [x.id, x]));
    expect(byId(body.results)).to.deep.equal(byId(details));
    expect(byId(body.results)[c.id]).to.deep.include({ cable_peer_type: "dcim.frontport", connected_endpoint_type: "dcim.interface" });
    expect(byId(body.results)[c.id].connected_endpoint.id).to.equal(d.id);
    expect(byId(body.results)[a.id].cable_peer.id).to.equal(b.id);
  });

  it("console connections: console ports whose path ends somewhere, filtered by device and name", async () => {
    const cs = await device("cs", { "console-server-port": [{ name: "Port 1" }, { name: "Port 2" }] });
    const sw = await device("sw", { "console-port": [{ name: "con0" }] });
    const con = await port("console-ports", sw, "con0");
    expect((await cable(["dcim.consoleserverport", (await port("console-server-ports", cs, "Port 2")).id], ["dcim.consoleport", con.id])).status).to.equal(201);
    const listed = (await get(`/api/dcim/console-connections/?device=${sw.name}&name=con0`)).body;
    expect(listed.results.map((c: any) => [c.id, c.connected_endpoint_type, c.connected_endpoint.name])).to.deep.equal([[con.id, "dcim.consoleserverport", "Port 2"]]);
    expect((await get(`/api/dcim/console-connections/?device_id=${cs.id}`)).body.count).to.equal(0);
    expect((await get(`/api/dcim/console-ports/${con.id}/trace/`)).body[0][2].name).to.equal("Port 2");
  });

  it("refuses what Nautobot refuses, in its words, and stores nothing", async () => {
    const r3 = await device("r3", {
      interface: [{ name: "eth0", type: "1000base-t" }, { name: "eth1", type: "1000base-t" }, { name: "eth2", type: "1000base-t" }, { name: "lag0", type: "lag" }],
      "power-port": [{ name: "PSU0" }],
    });
    const [e0, e1, e2, lag, psu] = [
      await port("interfaces", r3, "eth0"), await port("interfaces", r3, "eth1"), await port("interfaces", r3, "eth2"),
      await port("interfaces", r3, "lag0"), await port("power-ports", r3, "PSU0"),
    ];
    const before = await rows("dcim_cable");
    const cases: Array<[Promise<any>, unknown]> = [
      [cable(["dcim.interface", e0.id], ["dcim.powerport", psu.id]), { non_field_errors: ["Incompatible termination types: DCIM | interface and DCIM | power port"] }],
      [cable(["dcim.interface", e0.id], ["dcim.interface", lag.id]), { termination_b_id: ["Cables cannot be terminated to Link Aggregation Group (LAG) interfaces"] }],
      [cable(["dcim.interface", e0.id], ["dcim.interface", e0.id]), { non_field_errors: ["Cannot connect DCIM | interface to itself"] }],
      [cable(["dcim.interface", e0.id], ["dcim.interface", psu.id]), { termination_b: ["Invalid ID for type DCIM | interface"] }],
      [cable(["dcim.widget", e0.id], ["dcim.interface", e1.id]), { termination_a_type: ["Invalid content type: dcim.widget"] }],
      [cable(["interface", e0.id], ["dcim.interface", e1.id]), { termination_a_type: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."] }],
      [cable(["dcim.interface", e0.id], ["dcim.interface", e1.id], { length: 5 }), { non_field_errors: ["Must specify a unit when setting a cable length"] }],
    ];
    for (const [res, body] of cases) {
      const r = await res;
      expect(r.status, r.text).to.equal(400);
      expect(r.body).to.deep.equal(body);
    }
    expect(await rows("dcim_cable")).to.equal(before);
    const first = await cable(["dcim.interface", e0.id], ["dcim.interface", e1.id]);
    expect(first.status).to.equal(201);
    const again = await cable(["dcim.interface", e1.id], ["dcim.interface", e0.id]);
    expect(again.status).to.equal(400);
    expect(again.body).to.deep.equal({ non_field_errors: [`eth1 already has a cable attached (#${first.body.id})`] });
    // The same end on the same side: DRF's validator of the pair speaks first.
    const same = await cable(["dcim.interface", e0.id], ["dcim.interface", e2.id]);
    expect([same.status, same.body]).to.deep.equal([400, { non_field_errors: ["The fields termination_a_type, termination_a_id must make a unique set."] }]);
    const sameB = await cable(["dcim.interface", e2.id], ["dcim.interface", e1.id]);
    expect([sameB.status, sameB.body]).to.deep.equal([400, { non_field_errors: ["The fields termination_b_type, termination_b_id must make a unique set."] }]);
    expect(await rows("dcim_cable")).to.equal(before + 1);
  });

  it("through a patch panel pair the two interfaces see each other, and lose it when the middle cable goes", async () => {
    const left = await device("left", { interface: [{ name: "ge-0/0/1", type: "1000base-t" }] });
    const right = await device("right", { interface: [{ name: "ge-0/0/1", type: "1000base-t" }] });
    const panelA = await device("pp-a", { "rear-port": [{ name: "R1", type: "mpo", positions: 2 }] });
    const panelB = await device("pp-b", { "rear-port": [{ name: "R1", type: "mpo", positions: 2 }] });
    const [ia, ib] = [await port("interfaces", left, "ge-0/0/1"), await port("interfaces", right, "ge-0/0/1")];
    const [fa, ra] = [await port("front-ports", panelA, "F1-2"), await port("rear-ports", panelA, "R1")];
    const [fb, rb] = [await port("front-ports", panelB, "F1-2"), await port("rear-ports", panelB, "R1")];
    expect((await cable(["dcim.interface", ia.id], ["dcim.frontport", fa.id])).status).to.equal(201);
    const trunk = await cable(["dcim.rearport", ra.id], ["dcim.rearport", rb.id], { type: "mmf" });
    expect(trunk.status).to.equal(201);
    expect((await get(`/api/dcim/interfaces/${ia.id}/`)).body.connected_endpoint).to.equal(null);
    expect((await cable(["dcim.frontport", fb.id], ["dcim.interface", ib.id])).status).to.equal(201);

    const a = (await get(`/api/dcim/interfaces/${ia.id}/`)).body;
    expect(a.cable_peer_type).to.equal("dcim.frontport");
    expect(a.cable_peer).to.deep.include({ id: fa.id, name: "F1-2" });
    expect(a.connected_endpoint_type).to.equal("dcim.interface");
    expect(a.connected_endpoint).to.deep.include({ id: ib.id, name: "ge-0/0/1" });
    expect(a.connected_endpoint.device.id).to.equal(right.id);
    expect(a.connected_endpoint_reachable).to.equal(true);
    expect((await get(`/api/dcim/interfaces/${ib.id}/`)).body.connected_endpoint.id).to.equal(ia.id);
    expect((await get(`/api/dcim/rear-ports/${ra.id}/`)).body.cable_peer).to.deep.include({ id: rb.id });
    // The stored path: cable, front, rear, cable, rear, front, cable.
    const { db } = await startTestServer();
    const stored = await db("dcim_cablepath").where({ origin_id: ia.id }).first();
    expect(stored.path.map((n: string) => n.split(":")[0])).to.deep.equal([
      "dcim.cable", "dcim.frontport", "dcim.rearport", "dcim.cable", "dcim.rearport", "dcim.frontport", "dcim.cable",
    ]);

    // The trace action: one [near, cable, far] triple per cable, ends nested, cables as traced.
    const traced = await get(`/api/dcim/interfaces/${ia.id}/trace/`);
    expect(traced.status).to.equal(200);
    expect(traced.body).to.have.length(3);
    expect(traced.body.map((t: any[]) => [t[0].id, t[2].id])).to.deep.equal([[ia.id, fa.id], [ra.id, rb.id], [fb.id, ib.id]]);
    expect(Object.keys(traced.body[1][1]).sort()).to.deep.equal(["color", "id", "label", "length", "length_unit", "status", "type", "url"]);
    expect(traced.body[1][1].type).to.deep.equal({ value: "mmf", label: "Multimode Fiber" });
    expect(traced.body[0][0].device).to.deep.include({ id: left.id, name: left.name });
    // The paths action of a pass-through port: both directions pass through the trunk's rear port.
    const through = await get(`/api/dcim/rear-ports/${ra.id}/paths/`);
    expect(through.status).to.equal(200);
    expect(through.body.map((p: any) => p.origin.id).sort()).to.deep.equal([ia.id, ib.id].sort());
    expect(through.body[0]).to.deep.include({ is_active: true, is_split: false, destination_type: "dcim.interface" });
    expect(through.body[0].path).to.have.length(7);
    expect((await get(`/api/dcim/interfaces/${fa.id}/trace/`)).status).to.equal(404);
    expect((await get(`/api/dcim/front-ports/${fa.id}/trace/`)).status).to.equal(404);

    expect((await del(`/api/dcim/cables/${trunk.body.id}/`)).status).to.equal(204);
    // Without the trunk the path stops at the first panel's rear port: padded as Nautobot pads
    // it ([…, None, None, rear port]), the trace shows the one complete segment.
    const cut = (await get(`/api/dcim/interfaces/${ia.id}/trace/`)).body;
    expect(cut.map((t: any[]) => t.map((x) => x?.id ?? null))).to.deep.equal([[ia.id, cut[0][1].id, fa.id]]);
    for (const id of [ia.id, ib.id]) {
      const end = (await get(`/api/dcim/interfaces/${id}/`)).body;
      expect(end.connected_endpoint).to.equal(null);
      expect(end.connected_endpoint_reachable).to.equal(false);
      expect(end.cable).to.not.equal(null);
    }
  });

  it("cables deleted together: the paths through them are found at once and each retraced once", async () => {
    const left = await device("bl", { interface: [{ name: "eth0", type: "1000base-t" }] });
    const right = await device("br", { interface: [{ name: "eth0", type: "1000base-t" }] });
    const panelA = await device("bpa", { "rear-port": [{ name: "R1", type: "mpo" }] });
    const panelB = await device("bpb", { "rear-port": [{ name: "R1", type: "mpo" }] });
    const [ia, ib] = [await port("interfaces", left, "eth0"), await port("interfaces", right, "eth0")];
    const [fa, ra, fb, rb] = [
      await port("front-ports", panelA, "F1-1"), await port("rear-ports", panelA, "R1"), await port("front-ports", panelB, "F1-1"), await port("rear-ports", panelB, "R1"),
    ];
    expect((await cable(["dcim.interface", ia.id], ["dcim.frontport", fa.id])).status).to.equal(201);
    const trunk = (await cable(["dcim.rearport", ra.id], ["dcim.rearport", rb.id])).body;
    const last = (await cable(["dcim.frontport", fb.id], ["dcim.interface", ib.id])).body;
    expect((await get(`/api/dcim/interfaces/${ia.id}/`)).body.connected_endpoint.id).to.equal(ib.id);
    const { db } = await startTestServer();
    const sql: string[] = [];
    const listen = (q: { sql: string }) => sql.push(q.sql);
    db.on("query", listen);
    try {
      expect((await del("/api/dcim/cables/", [{ id: trunk.id }, { id: last.id }])).status).to.equal(204);
    } finally {
      db.removeListener("query", listen);
    }
    // The ends leave their cables one statement per kind of end (two rear ports, one statement).
    expect(sql.filter((s) => /^update "dcim_(rearport|frontport|interface)" set "cable_id" = /.test(s)), "the ends let go").to.have.length(3);
    // Both cables are on the paths of both interfaces: one look for them, one retrace of each.
    expect(sql.filter((s) => s.includes("dcim_cablepath") && s.includes("@>")), sql.join("\n")).to.have.length(1);
    expect(sql.filter((s) => /^insert into "dcim_cablepath"/.test(s)), "the left path, stored again").to.have.length(1);
    expect((await get(`/api/dcim/interfaces/${ia.id}/`)).body).to.deep.include({ connected_endpoint: null, connected_endpoint_reachable: false });
    expect((await get(`/api/dcim/interfaces/${ib.id}/`)).body).to.deep.include({ cable: null, connected_endpoint: null });
    expect(await rows("dcim_cablepath", { origin_id: ib.id })).to.equal(0);
  });

  it("deleting a device takes its cables along and clears the far ends", async () => {
    const r5 = await device("r5", { interface: [{ name: "eth0", type: "1000base-t" }] });
    const r6 = await device("r6", { interface: [{ name: "eth0", type: "1000base-t" }] });
    const [a, b] = [await port("interfaces", r5, "eth0"), await port("interfaces", r6, "eth0")];
    const c = await cable(["dcim.interface", a.id], ["dcim.interface", b.id]);
    expect(c.status).to.equal(201);
    expect((await del(`/api/dcim/devices/${r5.id}/`)).status).to.equal(204);
    expect(await row("dcim_cable", c.body.id)).to.equal(undefined);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).body).to.deep.include({ cable: null, cable_peer: null, connected_endpoint: null, connected_endpoint_reachable: null });
  });

  it("power panels and feeds: a feed cabled to a power port; Nautobot's rules and available power", async () => {
    const group = (await post("/api/dcim/rack-groups/", { name: `${tag}-hall`, site: site.id })).body;
    const panel = await post("/api/dcim/power-panels/", { site: { slug: site.slug }, rack_group: group.id, name: "RPP-1" });
    expect(panel.status, panel.text).to.equal(201);
    expect(panel.body).to.deep.include({ name: "RPP-1", display: "RPP-1", powerfeed_count: 0 });
    const feed = await post("/api/dcim/power-feeds/", { power_panel: { name: "RPP-1", site: site.id }, name: "Feed A", status: "active", phase: "three-phase", voltage: 400, amperage: 32 });
    expect(feed.status, feed.text).to.equal(201);
    expect(feed.body).to.deep.include({ voltage: 400, amperage: 32, max_utilization: 80, cable: null, connected_endpoint_reachable: null });
    expect(feed.body.type).to.deep.equal({ value: "primary", label: "Primary" });
    expect(feed.body.power_panel).to.deep.include({ id: panel.body.id, name: "RPP-1" });
    expect(feed.body).to.not.have.property("available_power");
    expect((await row("dcim_powerfeed", feed.body.id))!.available_power).to.equal(Math.round(400 * 32 * 0.8 * 1.732));
    expect((await get(`/api/dcim/power-panels/${panel.body.id}/`)).body.powerfeed_count).to.equal(1);

    const bad = await post("/api/dcim/power-feeds/", { power_panel: panel.body.id, name: "Feed B", status: "active", voltage: -48 });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ voltage: ["Voltage cannot be negative for AC supply"] });
    expect((await post("/api/dcim/power-feeds/", { power_panel: panel.body.id, name: "Feed B", status: "active", voltage: -48, supply: "dc" })).status).to.equal(201);

    const srv = await device("srv1", { "power-port": [{ name: "PSU0" }] });
    const psu = await port("power-ports", srv, "PSU0");
    const c = await cable(["dcim.powerfeed", feed.body.id], ["dcim.powerport", psu.id], { type: "power" });
    expect(c.status, c.text).to.equal(201);
    const seen = (await get(`/api/dcim/power-ports/${psu.id}/`)).body;
    expect(seen.connected_endpoint_type).to.equal("dcim.powerfeed");
    expect(seen.connected_endpoint).to.deep.include({ id: feed.body.id, name: "Feed A", cable: c.body.id });
    expect((await get(`/api/dcim/power-feeds/${feed.body.id}/`)).body.connected_endpoint).to.deep.include({ id: psu.id });
    expect((await get(`/api/dcim/power-feeds/?cabled=true&power_panel_id=${panel.body.id}`)).body.results.map((f: any) => f.name)).to.deep.equal(["Feed A"]);
    // Power connections: power ports with a traced destination, in the power port's own shape.
    const connections = (await get(`/api/dcim/power-connections/?device_id=${srv.id}`)).body;
    expect(connections.results.map((p: any) => [p.id, p.connected_endpoint.id])).to.deep.equal([[psu.id, feed.body.id]]);
    expect(connections.results[0].url).to.match(new RegExp(`/api/dcim/power-ports/${psu.id}/$`));
    expect((await get(`/api/dcim/power-connections/?cabled=true`)).body).to.deep.equal({ cabled: ["Unknown filter field"] });
    expect((await get("/api/dcim/")).body["power-connections"]).to.match(/\/api\/dcim\/power-connections\/$/);
    // The panel is protected by its feeds; the feed, when deleted, takes its cable.
    expect((await del(`/api/dcim/power-panels/${panel.body.id}/`)).status).to.equal(409);
    expect((await del(`/api/dcim/power-feeds/${feed.body.id}/`)).status).to.equal(204);
    expect((await get(`/api/dcim/power-ports/${psu.id}/`)).body).to.deep.include({ cable: null, connected_endpoint: null });
  });
});
