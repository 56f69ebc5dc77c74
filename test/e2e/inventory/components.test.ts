// Device components and their templates over HTTP: a new device gets every component its
// type's templates describe (power outlets and front ports linked to the device's own power
// and rear ports), in the same transaction; the rules between siblings in Nautobot's words;
// interfaces (LAG, parent, bridge, MAC addresses as Nautobot shows them); device bays; and
// components going with their device.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: device components and templates", () => {
  const tag = uniq("cmp").toLowerCase();
  let type: any, site: any, role: any, region: any, area: any;

  before(async () => {
    region = (await post("/api/dcim/regions/", { name: `${tag}-region` })).body;
    area = (await post("/api/dcim/regions/", { name: `${tag}-area`, parent: region.id })).body;
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active", region: area.id })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "Edge", subdevice_role: "parent" })).body;
    const t = (path: string, body: Record<string, unknown>) => post(`/api/dcim/${path}/`, { device_type: type.id, ...body });
    for (const [path, body] of [
      ["console-port-templates", { name: "con0", type: "rj-45" }],
      ["console-server-port-templates", { name: "cs1" }],
      ["power-port-templates", { name: "PSU0", type: "iec-60320-c14", maximum_draw: 500, allocated_draw: 250 }],
      ["power-port-templates", { name: "PSU1" }],
      ["interface-templates", { name: "xe-0/0/0", type: "10gbase-x-sfpp" }],
      ["interface-templates", { name: "fxp0", type: "1000base-t", mgmt_only: true }],
      ["rear-port-templates", { name: "R1", type: "8p8c", positions: 2 }],
      ["device-bay-templates", { name: "Slot 1", label: "S1" }],
    ] as Array<[string, Record<string, unknown>]>) {
      const res = await t(path, body);
      expect(res.status, `${path} ${res.text}`).to.equal(201);
    }
    const psu = (await get(`/api/dcim/power-port-templates/?device_type_id=${type.id}&name=PSU1`)).body.results[0];
    expect((await t("power-outlet-templates", { name: "out1", power_port: psu.id, feed_leg: "A" })).status).to.equal(201);
    const rear = (await get(`/api/dcim/rear-port-templates/?device_type_id=${type.id}`)).body.results[0];
    expect((await t("front-port-templates", { name: "F1", type: "8p8c", rear_port: rear.id, rear_port_position: 2 })).status).to.equal(201);
  });

  it("templates refuse a sibling of another type and a position the rear port lacks", async () => {
    const other = (await post("/api/dcim/device-types/", { manufacturer: type.manufacturer.id, model: "Other" })).body;
    const psu = (await get(`/api/dcim/power-port-templates/?device_type_id=${type.id}&name=PSU0`)).body.results[0];
    const foreign = await post("/api/dcim/power-outlet-templates/", { device_type: other.id, name: "x", power_port: psu.id });
    expect(foreign.status).to.equal(400);
    expect(foreign.body).to.deep.equal({ non_field_errors: ["Parent power port (PSU0) must belong to the same device type"] });
    const rear = (await get(`/api/dcim/rear-port-templates/?device_type_id=${type.id}`)).body.results[0];
    const far = await post("/api/dcim/front-port-templates/", { device_type: type.id, name: "F9", type: "8p8c", rear_port: rear.id, rear_port_position: 3 });
    expect(far.status).to.equal(400);
    expect(far.body).to.deep.equal({ non_field_errors: ["Invalid rear port position (3); rear port R1 has only 2 positions"] });
    const twin = await post("/api/dcim/interface-templates/", { device_type: type.id, name: "fxp0", type: "virtual" });
    expect(twin.body).to.deep.equal({ non_field_errors: ["The fields device_type, name must make a unique set."] });
  });

  it("a new device gets its type's components, linked among themselves", async () => {
    const dev = await post("/api/dcim/devices/", { name: `${tag}-r1`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    expect(dev.status, dev.text).to.equal(201);
    const list = async (path: string) => (await get(`/api/dcim/${path}/?device_id=${dev.body.id}`)).body.results;
    expect((await list("console-ports")).map((x: any) => [x.name, x.type?.value])).to.deep.equal([["con0", "rj-45"]]);
    expect((await list("console-server-ports")).map((x: any) => x.name)).to.deep.equal(["cs1"]);
    expect((await list("power-ports")).map((x: any) => [x.name, x.maximum_draw, x.allocated_draw])).to.deep.equal([["PSU0", 500, 250], ["PSU1", null, null]]);
    const [outlet] = await list("power-outlets");
    expect(outlet).to.deep.include({ name: "out1" });
    expect(outlet.feed_leg).to.deep.equal({ value: "A", label: "A" });
    expect(outlet.power_port.name).to.equal("PSU1");
    expect(outlet.power_port.device.id).to.equal(dev.body.id);
    expect((await list("interfaces")).map((x: any) => [x.name, x.type.value, x.mgmt_only, x.enabled])).to.deep.equal([
      ["fxp0", "1000base-t", true, true], ["xe-0/0/0", "10gbase-x-sfpp", false, true],
    ]);
    const [front] = await list("front-ports");
    expect(front).to.deep.include({ name: "F1", rear_port_position: 2 });
    expect(front.rear_port.device.id).to.equal(dev.body.id);
    expect((await list("device-bays")).map((x: any) => [x.name, x.label, x.installed_device])).to.deep.equal([["Slot 1", "S1", null]]);
    expect(Object.keys((await list("interfaces"))[0].device).sort()).to.deep.equal(["display", "id", "name", "url"]);
    // Filters take a device by name too, as Nautobot's.
    expect((await get(`/api/dcim/interfaces/?device=${tag}-r1`)).body.count).to.equal(2);

    // Deleting the device takes its components with it.
    expect((await del(`/api/dcim/devices/${dev.body.id}/`)).status).to.equal(204);
    expect(await rows("dcim_interface", { device_id: dev.body.id })).to.equal(0);
    expect(await rows("dcim_frontport", { device_id: dev.body.id })).to.equal(0);
  });

  it("interfaces: LAG, parent and bridge rules in Nautobot's words; MAC addresses normalised", async () => {
    const mk = async (name: string) => (await post("/api/dcim/devices/", { name, device_type: type.id, device_role: role.id, site: site.id, status: "active" })).body;
    const a = await mk(`${tag}-a`);
    const b = await mk(`${tag}-b`);
    const lag = (await post("/api/dcim/interfaces/", { device: a.id, name: "ae0", type: "lag" })).body;
    const xe = (await get(`/api/dcim/interfaces/?device_id=${a.id}&name=xe-0/0/0`)).body.results[0];
    const joined = await patch(`/api/dcim/interfaces/${xe.id}/`, { lag: lag.id, mac_address: "001b.2c3d.4e5f" });
    expect(joined.status, joined.text).to.equal(200);
    expect(joined.body.mac_address).to.equal("00:1B:2C:3D:4E:5F");
    expect(joined.body.lag.name).to.equal("ae0");
    const foreign = await post("/api/dcim/interfaces/", { device: b.id, name: "xe-1", type: "10gbase-x-sfpp", lag: lag.id });
    expect(foreign.body).to.deep.equal({ lag: [`The selected LAG interface (ae0) belongs to a different device (${tag}-a).`] });
    const notVirtual = await post("/api/dcim/interfaces/", { device: a.id, name: "sub", type: "1000base-t", parent_interface: xe.id });
    expect(notVirtual.body).to.deep.equal({ parent_interface: ["Only virtual interfaces may be assigned to a parent interface."] });
    const sub = await post("/api/dcim/interfaces/", { device: a.id, name: "xe-0/0/0.100", type: "virtual", parent_interface: xe.id });
    expect(sub.status, sub.text).to.equal(201);
    const badMac = await patch(`/api/dcim/interfaces/${xe.id}/`, { mac_address: "00:11:22" });
    expect(badMac.body).to.deep.equal({ mac_address: ["Enter a valid MAC address."] });
    const self = await patch(`/api/dcim/interfaces/${xe.id}/`, { bridge: xe.id });
    expect(self.body).to.deep.equal({ bridge: ["An interface cannot be bridged to itself."] });
  });

  it("device bays hold child devices only once", async () => {
    const parent = (await post("/api/dcim/devices/", { name: `${tag}-chassis`, device_type: type.id, device_role: role.id, site: site.id, status: "active" })).body;
    const bladeType = (await post("/api/dcim/device-types/", { manufacturer: type.manufacturer.id, model: "Blade", u_height: 0, subdevice_role: "child" })).body;
    const blade = (await post("/api/dcim/devices/", { name: `${tag}-blade`, device_type: bladeType.id, device_role: role.id, site: site.id, status: "active" })).body;
    const bay = (await get(`/api/dcim/device-bays/?device_id=${parent.id}`)).body.results[0];
    const installed = await patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: blade.id });
    expect(installed.status, installed.text).to.equal(200);
    expect(installed.body.installed_device.name).to.equal(`${tag}-blade`);
    // The blade shows its chassis and bay (Nautobot's parent_device); the chassis has none.
    const shown = (await get(`/api/dcim/devices/${blade.id}/`)).body.parent_device;
    expect(shown).to.deep.equal({
      id: parent.id, url: parent.url, display: parent.display, name: parent.name,
      device_bay: { id: bay.id, url: bay.url, display: "Slot 1", device: { id: parent.id, url: parent.url, display: parent.display, name: parent.name }, name: "Slot 1" },
    });
    expect((await get(`/api/dcim/devices/${parent.id}/`)).body.parent_device).to.equal(null);
    // A list shows each the same.
    const listed = (await get(`/api/dcim/devices/?id=${parent.id}&id=${blade.id}`)).body.results;
    expect(Object.fromEntries(listed.map((d: any) => [d.id, d.parent_device]))).to.deep.equal({ [parent.id]: null, [blade.id]: shown });
    expect((await get(`/api/dcim/devices/?has_device_bays=true&site_id=${site.id}&name=${parent.name}`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/devices/?device_bays=false&site_id=${site.id}`)).body.results.map((d: any) => d.name)).to.include(blade.name);
    await patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: null });
    expect((await get(`/api/dcim/devices/${blade.id}/`)).body.parent_device).to.equal(null);
    await patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: blade.id });
    const into = await post("/api/dcim/device-bays/", { device: parent.id, name: "Slot 2", installed_device: blade.id });
    expect(into.body).to.deep.equal({ installed_device: [`Cannot install the specified device; device is already installed in ${tag}-chassis - Slot 1`] });
    const noBays = await post("/api/dcim/device-bays/", { device: blade.id, name: "Slot" });
    expect(noBays.body).to.deep.equal({ non_field_errors: [`This type of device (${tag}-maker Blade) does not support device bays.`] });
  });

  it("inventory items nest inside a device: parent as a bare id, depth, filters, and they go with the device", async () => {
    const dev = (await post("/api/dcim/devices/", { name: `${tag}-inv`, device_type: type.id, device_role: role.id, site: site.id, status: "active" })).body;
    const chassis = await post("/api/dcim/inventory-items/", { device: { name: dev.name }, name: "Chassis", manufacturer: { slug: type.manufacturer.slug }, serial: `${tag}-sn-77`, asset_tag: `${tag}-A1` });
    expect(chassis.status, chassis.text).to.equal(201);
    expect(chassis.body).to.deep.include({ parent: null, _depth: 0, discovered: false, serial: `${tag}-sn-77`, display: "Chassis" });
    const card = await post("/api/dcim/inventory-items/", { device: dev.id, parent: chassis.body.id, name: "Line card 0", part_id: "LC-48X" });
    expect(card.status, card.text).to.equal(201);
    expect(card.body).to.deep.include({ parent: chassis.body.id, _depth: 1 });
    const optic = (await post("/api/dcim/inventory-items/", { device: dev.id, parent: card.body.id, name: "xcvr-0/0/0", discovered: true })).body;
    expect(optic._depth).to.equal(2);
    expect(Object.keys((await get(`/api/dcim/inventory-items/${optic.id}/?brief=1`)).body).sort()).to.deep.equal(["_depth", "device", "display", "id", "name", "url"]);
    // parent_id matches direct children, as Nautobot's InventoryItemFilterSet does.
    expect((await get(`/api/dcim/inventory-items/?parent_id=${chassis.body.id}`)).body.results.map((i: any) => i.name)).to.deep.equal(["Line card 0"]);
    expect((await get(`/api/dcim/inventory-items/?device_id=${dev.id}&discovered=true`)).body.results.map((i: any) => i.id)).to.deep.equal([optic.id]);
    // A device's q also searches its inventory items' serials.
    expect((await get(`/api/dcim/devices/?q=${tag}-SN-77`)).body.results.map((d: any) => d.id)).to.deep.equal([dev.id]);
    // region follows device, site and region, and takes in the region's descendants (a TreeNode filter).
    for (const query of [`region=${area.slug}`, `region=${region.slug}`, `region_id=${region.id}`]) {
      expect((await get(`/api/dcim/inventory-items/?device_id=${dev.id}&${query}`)).body.count, query).to.equal(3);
    }
    expect((await get(`/api/dcim/inventory-items/?device_id=${dev.id}&region__n=${region.slug}`)).body.count).to.equal(0);
    const twin = await post("/api/dcim/inventory-items/", { device: dev.id, name: "Other", asset_tag: `${tag}-A1` });
    expect(twin.status).to.equal(400);
    expect(twin.body).to.have.property("asset_tag");
    expect((await patch(`/api/dcim/inventory-items/${chassis.body.id}/`, { parent: optic.id })).body).to.deep.equal({ parent: ["Cannot assign self or child as parent."] });
    // Deleting a node deletes its subtree; deleting the device deletes the rest.
    expect((await del(`/api/dcim/inventory-items/${card.body.id}/`)).status).to.equal(204);
    expect(await rows("dcim_inventoryitem", { device_id: dev.id })).to.equal(1);
    expect((await del(`/api/dcim/devices/${dev.id}/`)).status).to.equal(204);
    expect(await rows("dcim_inventoryitem", { device_id: dev.id })).to.equal(0);
  });

  it("interfaces by device: a virtual chassis master's name or id finds its members' interfaces", async () => {
    const make = async (name: string) => (await post("/api/dcim/devices/", { name, device_type: type.id, device_role: role.id, site: site.id, status: "active" })).body;
    const [master, member] = [await make(`${tag}-vc1`), await make(`${tag}-vc2`)];
    const vc = (await post("/api/dcim/virtual-chassis/", { name: `${tag}-vc`, master: master.id })).body;
    for (const [d, position] of [[master, 1], [member, 2]]) {
      expect((await patch(`/api/dcim/devices/${d.id}/`, { virtual_chassis: vc.id, vc_position: position })).status).to.equal(200);
    }
    const names = async (query: string) => {
      const res = await get(`/api/dcim/interfaces/?${query}&limit=0`);
      expect(res.status, res.text).to.equal(200);
      return res.body.results.map((i: any) => `${i.device.name}:${i.name}`).sort();
    };
    // The master's own interfaces, and its member's that are not management-only (Device.vc_interfaces).
    const ofMaster = [`${master.name}:fxp0`, `${master.name}:xe-0/0/0`, `${member.name}:xe-0/0/0`];
    expect(await names(`device=${master.name}`)).to.deep.equal(ofMaster);
    expect(await names(`device_id=${master.id}`)).to.deep.equal(ofMaster);
    expect(await names(`device=${master.name}&name=xe-0/0/0`)).to.deep.equal([`${master.name}:xe-0/0/0`, `${member.name}:xe-0/0/0`]);
    expect(await names(`device=${member.name}`)).to.deep.equal([`${member.name}:fxp0`, `${member.name}:xe-0/0/0`]);
    // A name that matches no device finds nothing, as Nautobot's method filter; a bad id is refused.
    expect(await names(`device=${tag}-nowhere`)).to.deep.equal([]);
    const bad = await get("/api/dcim/interfaces/?device_id=nope");
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ device_id: ["Enter a valid UUID."] });
  });
});
