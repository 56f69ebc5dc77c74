// Devices over HTTP: references by id and attributes, the display of named and unnamed
// devices, rack placement rules in Nautobot's words (site, face, position, U0, child types,
// occupied units on a face or both faces, the rack's height), name uniqueness without a
// tenant, primary IP families, counts on the related models, Nautobot's filter names, and
// concurrent placements into one unit.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { uniq } from "./support.js";

describe("inventory e2e: devices", () => {
  const tag = uniq("dev").toLowerCase();
  let site: any, other: any, rack: any, type: any, deep: any, u0: any, child: any, role: any;

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    other = (await post("/api/dcim/sites/", { name: `${tag}-other`, status: "active" })).body;
    rack = (await post("/api/dcim/racks/", { name: "R1", site: site.id, status: "active", u_height: 10 })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "Half", u_height: 2, is_full_depth: false })).body;
    deep = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "Deep", u_height: 1 })).body;
    u0 = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "PDU", u_height: 0 })).body;
    child = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "Blade", u_height: 0, subdevice_role: "child" })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
  });

  const device = (data: Record<string, unknown>) => post("/api/dcim/devices/", { device_type: type.id, device_role: role.id, site: site.id, status: "active", ...data });

  it("creates by attributes and shows Nautobot's shape and display", async () => {
    const res = await device({ name: `${tag}-a`, device_type: { manufacturer: { slug: `${tag}-maker` }, model: "Half" }, rack: rack.id, position: 1, face: "front" });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.deep.include({ display: `${tag}-a`, position: 1, serial: "", asset_tag: null, local_context_data: null, vc_position: null });
    expect(res.body.face).to.deep.equal({ value: "front", label: "Front" });
    expect(res.body.status).to.deep.equal({ value: "active", label: "Active" });
    expect(Object.keys(res.body.device_type).sort()).to.deep.equal(["display", "id", "manufacturer", "model", "slug", "url"]);
    const unnamed = await device({});
    expect(unnamed.status, unnamed.text).to.equal(201);
    expect(unnamed.body.display).to.equal(`${tag}-maker Half (${unnamed.body.id})`);
    expect((await get(`/api/dcim/device-types/${type.id}/`)).body.device_count).to.equal(2);
    expect((await get(`/api/dcim/racks/${rack.id}/?brief=1`)).body.device_count).to.equal(1);
    expect((await get(`/api/dcim/sites/${site.id}/`)).body).to.deep.include({ device_count: 2, rack_count: 1 });
  });

  it("refuses placements Nautobot refuses, in its words, and stores nothing", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ rack: rack.id, position: 1, face: "front" }, { non_field_errors: ["The position and face is already occupied on this rack. The fields rack, position, face must make a unique set."] }],
      [{ site: other.id, rack: rack.id }, { rack: [`Rack R1 does not belong to site ${tag}-other.`] }],
      [{ face: "rear" }, { face: ["Cannot select a rack face without assigning a rack."] }],
      [{ position: 3 }, { position: ["Cannot select a rack position without assigning a rack."] }],
      [{ rack: rack.id, position: 3 }, { face: ["Must specify rack face when defining rack position."] }],
      [{ device_type: u0.id, rack: rack.id, position: 3, face: "front" }, { position: [`A U0 device type (${tag}-maker PDU) cannot be assigned to a rack position.`] }],
      [{ device_type: child.id, rack: rack.id, face: "front" }, { face: ["Child device types cannot be assigned to a rack face. This is an attribute of the parent device."] }],
      [{ rack: rack.id, position: 2, face: "front" }, { position: [`U2 is already occupied or does not have sufficient space to accommodate this device type: ${tag}-maker Half (2U)`] }],
      [{ rack: rack.id, position: 10, face: "rear" }, { position: [`U10 is already occupied or does not have sufficient space to accommodate this device type: ${tag}-maker Half (2U)`] }],
      [{ device_type: deep.id, rack: rack.id, position: 2, face: "rear" }, { position: [`U2 is already occupied or does not have sufficient space to accommodate this device type: ${tag}-maker Deep (1U)`] }],
      [{ name: `${tag}-a` }, { name: ["A device with this name already exists."] }],
      [{ vc_priority: 256 }, { vc_priority: ["Ensure this value is less than or equal to 255."] }],
    ];
    const before = (await get(`/api/dcim/devices/?site_id=${site.id}&site_id=${other.id}`)).body.count;
    for (const [body, errors] of cases) {
      const res = await device(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body, JSON.stringify(body)).to.deep.equal(errors);
    }
    expect((await get(`/api/dcim/devices/?site_id=${site.id}&site_id=${other.id}`)).body.count).to.equal(before);
    // The rear of a half-depth device's units is free for another half-depth device.
    const rear = await device({ rack: rack.id, position: 1, face: "rear" });
    expect(rear.status, rear.text).to.equal(201);
    // Moving a device within its own units is no conflict with itself.
    const moved = await patch(`/api/dcim/devices/${rear.body.id}/`, { position: 2 });
    expect(moved.status, moved.text).to.equal(200);
    expect((await del(`/api/dcim/devices/${rear.body.id}/`)).status).to.equal(204);
  });

  it("primary IPs must be of their family", async () => {
    const v6 = await post("/api/ipam/ip-addresses/", { address: "2001:db8:99::1/64", status: "active" });
    const res = await device({ primary_ip4: v6.body.id });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ primary_ip4: ["2001:db8:99::1/64 is not an IPv4 address."] });
    // An IPv4-mapped IPv6 address is IPv6, dots and all.
    const mapped = await post("/api/ipam/ip-addresses/", { address: "::ffff:192.0.2.99/128", status: "active" });
    expect(mapped.status, mapped.text).to.equal(201);
    const refused = await device({ primary_ip4: mapped.body.id });
    expect([refused.status, refused.body]).to.deep.equal([400, { primary_ip4: [`${mapped.body.address} is not an IPv4 address.`] }]);
  });

  it("primary_ip is the IPv6 primary when set, else the IPv4 one; has_primary_ip filters on either", async () => {
    const created = (await device({ name: `${tag}-pip`, site: other.id })).body;
    const eth = (await post("/api/dcim/interfaces/", { device: created.id, name: "eth0", type: "1000base-t" })).body;
    const on = { status: "active", assigned_object_type: "dcim.interface", assigned_object_id: eth.id };
    const v4 = (await post("/api/ipam/ip-addresses/", { address: "192.0.2.77/24", ...on })).body;
    const v6 = (await post("/api/ipam/ip-addresses/", { address: "2001:db8:77::1/64", ...on })).body;
    const d = (await patch(`/api/dcim/devices/${created.id}/`, { primary_ip4: v4.id })).body;
    expect(d.primary_ip).to.deep.equal(d.primary_ip4);
    expect(d.primary_ip.address).to.equal("192.0.2.77/24");
    const both = (await patch(`/api/dcim/devices/${d.id}/`, { primary_ip6: v6.id })).body;
    expect(both.primary_ip.id).to.equal(v6.id);
    expect(Object.keys(both.primary_ip).sort()).to.deep.equal(Object.keys(both.primary_ip6).sort());
    const has = async (v: string) => (await get(`/api/dcim/devices/?site_id=${other.id}&has_primary_ip=${v}`)).body.results.map((x: any) => x.name);
    expect(await has("true")).to.deep.equal([`${tag}-pip`]);
    expect(await has("false")).to.not.include(`${tag}-pip`);
    await patch(`/api/dcim/devices/${d.id}/`, { primary_ip4: null, primary_ip6: null });
    expect((await get(`/api/dcim/devices/${d.id}/`)).body.primary_ip).to.equal(null);
    expect(await has("true")).to.deep.equal([]);
    expect((await del(`/api/dcim/devices/${d.id}/`)).status).to.equal(204);
  });

  it("filters by what a device has: depth, pass-through ports, MAC address, local context, chassis membership", async () => {
    const maker = type.manufacturer.id;
    const panelType = (await post("/api/dcim/device-types/", { manufacturer: maker, model: `${tag}-Panel`, u_height: 1 })).body;
    const rearT = (await post("/api/dcim/rear-port-templates/", { device_type: panelType.id, name: "R", type: "8p8c", positions: 1 })).body;
    expect((await post("/api/dcim/front-port-templates/", { device_type: panelType.id, name: "F", type: "8p8c", rear_port: rearT.id })).status).to.equal(201);
    const panel = (await device({ name: `${tag}-panel`, device_type: panelType.id, site: other.id, local_context_data: { a: 1 } })).body;
    const plain = (await device({ name: `${tag}-plain`, device_type: deep.id, site: other.id })).body;
    const iface = await post("/api/dcim/interfaces/", { device: plain.id, name: "eth0", type: "1000base-t", mac_address: "00:1a:2b:3c:4d:5e" });
    expect(iface.status, iface.text).to.equal(201);
    const names = async (q: string) => {
      const res = await get(`/api/dcim/devices/?site_id=${other.id}&${q}`);
      expect(res.status, `${q}: ${res.text}`).to.equal(200);
      return res.body.results.map((x: any) => x.name).sort();
    };
    expect(await names("pass_through_ports=true")).to.deep.equal([`${tag}-panel`]);
    expect(await names("pass_through_ports=false")).to.deep.equal([`${tag}-plain`]);
    expect(await names("has_front_ports=true&has_rear_ports=true")).to.deep.equal([`${tag}-panel`]);
    expect(await names("interfaces=true")).to.deep.equal([`${tag}-plain`]);
    expect(await names("has_interfaces=false")).to.deep.equal([`${tag}-panel`]);
    expect(await names("is_full_depth=true")).to.deep.equal([`${tag}-panel`, `${tag}-plain`]);
    expect(await names("is_full_depth=false")).to.deep.equal([]);
    // However the address is written, as Nautobot parses it.
    expect(await names("mac_address=00-1A-2B-3C-4D-5E")).to.deep.equal([`${tag}-plain`]);
    expect(await names("mac_address=00:1a:2b:3c:4d:5f&mac_address=001a.2b3c.4d5e")).to.deep.equal([`${tag}-plain`]);
    // Text values reach the hook's SQL as quoted literals: quotes and knex's `?` placeholder are data.
    expect(await names("mac_address=00%3F1a&mac_address=it's")).to.deep.equal([]);
    expect(await names("local_context_data=true")).to.deep.equal([`${tag}-panel`]);
    expect(await names("local_context_data=false")).to.deep.equal([`${tag}-plain`]);
    expect(await names("is_virtual_chassis_member=true")).to.deep.equal([]);
    expect(await names("virtual_chassis_member=false")).to.deep.equal([`${tag}-panel`, `${tag}-plain`]);
    for (const q of ["pass_through_ports=maybe", "has_interfaces=2", "is_full_depth=x"]) {
      const bad = await get(`/api/dcim/devices/?${q}`);
      expect(bad.status, q).to.equal(400);
      expect(bad.body, q).to.have.key(q.split("=")[0]);
    }
    for (const d of [panel, plain]) expect((await del(`/api/dcim/devices/${d.id}/`)).status).to.equal(204);
  });

  it("filters by Nautobot's names: role, model, manufacturer, rack group, q", async () => {
    const got = async (q: string) => (await get(`/api/dcim/devices/?site=${site.slug}&${q}`)).body;
    expect((await got(`role=${role.slug}`)).count).to.equal(2);
    expect((await got("model=half")).count).to.equal(2);
    expect((await got(`manufacturer=${tag}-maker&q=${tag}-a`)).results.map((d: { name: string }) => d.name)).to.deep.equal([`${tag}-a`]);
    expect((await got(`rack_id=${rack.id}`)).count).to.equal(1);
    expect((await get(`/api/dcim/racks/?has_devices=true&site=${site.slug}`)).body.count).to.equal(1);
    const bad = await get("/api/dcim/devices/?device_role=x");
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ device_role: ["Unknown filter field"] });
  });

  it("virtual chassis: the master becomes member 1; a master must be a member; unnamed members show chassis and position", async () => {
    const master = (await device({ name: `${tag}-stack1` })).body;
    const vc = await post("/api/dcim/virtual-chassis/", { name: `${tag}-stack`, domain: "stack.local", master: master.id });
    expect(vc.status, vc.text).to.equal(201);
    expect(vc.body.master.name).to.equal(`${tag}-stack1`);
    const member = (await get(`/api/dcim/devices/${master.id}/`)).body;
    expect(member.virtual_chassis.id).to.equal(vc.body.id);
    expect(member.vc_position).to.equal(1);
    const second = await device({ virtual_chassis: vc.body.id, vc_position: 2 });
    expect(second.status, second.text).to.equal(201);
    expect(second.body.display).to.equal(`${tag}-stack:2 (${second.body.id})`);
    expect((await get(`/api/dcim/virtual-chassis/${vc.body.id}/?brief=1`)).body.member_count).to.equal(2);
    const clash = await device({ virtual_chassis: vc.body.id, vc_position: 2 });
    // The serializer drops DRF's validators: Django's model validation words the clash.
    expect(clash.body).to.deep.equal({ __all__: ["Device with this Virtual chassis and Vc position already exists."] });
    const outsider = (await device({ name: `${tag}-outsider` })).body;
    const bad = await patch(`/api/dcim/virtual-chassis/${vc.body.id}/`, { master: outsider.id });
    expect(bad.body).to.deep.equal({ master: [`The selected master (${tag}-outsider) is not assigned to this virtual chassis.`] });
    // The master is protected while it leads the chassis.
    expect((await del(`/api/dcim/devices/${master.id}/`)).status).to.equal(409);
  });

  it("twenty clients placing devices into one unit: one wins, the rest get the 400", async () => {
    const r = (await post("/api/dcim/racks/", { name: "Race", site: site.id, status: "active" })).body;
    const replies = await Promise.all(Array.from({ length: 20 }, () => device({ rack: r.id, position: 5, face: "front" })));
    const statuses = replies.map((x) => x.status).sort();
    expect(statuses).to.deep.equal([201, ...Array(19).fill(400)]);
    expect((await get(`/api/dcim/devices/?rack_id=${r.id}`)).body.count).to.equal(1);
  });

  it("a rack's elevation: units top first, each with the device filling it on the face asked for", async () => {
    const r = (await post("/api/dcim/racks/", { name: "ELEV", site: site.id, status: "active", u_height: 6 })).body;
    const front = (await post("/api/dcim/devices/", { name: `${tag}-e1`, device_type: type.id, device_role: role.id, site: site.id, rack: r.id, position: 2, face: "front", status: "active" })).body;
    const full = (await post("/api/dcim/devices/", { name: `${tag}-e2`, device_type: deep.id, device_role: role.id, site: site.id, rack: r.id, position: 5, face: "rear", status: "active" })).body;
    const elev = await get(`/api/dcim/racks/${r.id}/elevation/`);
    expect(elev.status).to.equal(200);
    expect(elev.body.count).to.equal(6);
    expect(elev.body.results.map((u: any) => [u.name, u.device?.id ?? null, u.occupied])).to.deep.equal([
      ["U6", null, false], ["U5", full.id, true], ["U4", null, false], ["U3", front.id, true], ["U2", front.id, true], ["U1", null, false],
    ]);
    expect(elev.body.results[0]).to.deep.include({ id: 6, face: { value: "front", label: "Front" } });
    expect(Object.keys(elev.body.results[1].device).sort()).to.deep.equal(["display", "id", "name", "url"]);
    // The rear face sees the full-depth device only; a page of two; one device excluded; not expanded.
    const rear = (await get(`/api/dcim/racks/${r.id}/elevation/?face=rear`)).body.results;
    expect(rear.filter((u: any) => u.occupied).map((u: any) => u.name)).to.deep.equal(["U5"]);
    const page = (await get(`/api/dcim/racks/${r.id}/elevation/?limit=2&offset=1`)).body;
    expect([page.count, page.results.map((u: any) => u.id)]).to.deep.equal([6, [5, 4]]);
    expect(page.next).to.match(/limit=2&offset=3/);
    const without = (await get(`/api/dcim/racks/${r.id}/elevation/?exclude=${front.id}`)).body.results;
    expect(without.filter((u: any) => u.occupied).map((u: any) => u.id)).to.deep.equal([5]);
    const folded = (await get(`/api/dcim/racks/${r.id}/elevation/?expand_devices=false`)).body.results;
    expect(folded.map((u: any) => u.id)).to.deep.equal([6, 5, 4, 2, 1]);
    for (const [query, refused] of [
      ["face=side", { face: ['"side" is not a valid choice.'] }],
      ["render=png", { render: ['"png" is not a valid choice.'] }],
      ["exclude=nope", { exclude: ["Must be a valid UUID."] }],
      ["expand_devices=maybe", { expand_devices: ["Must be a valid boolean."] }],
    ] as const) {
      const bad = await get(`/api/dcim/racks/${r.id}/elevation/?${query}`);
      expect([bad.status, bad.body], query).to.deep.equal([400, refused]);
    }
    expect((await get("/api/dcim/racks/00000000-0000-4000-8000-000000000000/elevation/")).status).to.equal(404);
  });
});
