// IP addresses assigned to interfaces (a generic relation) over HTTP: both halves or neither,
// the resolved object nested in both API versions, Nautobot's assignment filters (device,
// virtual chassis master, interface, assigned_to_interface), primary IPs that must sit on
// the device's own interfaces, unique space per VRF, and an interface taking its addresses
// along when deleted (Django's GenericRelation cascade).
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { row, rows, uniq, MISSING_ID } from "./support.js";

describe("inventory e2e: IP address assignment", () => {
  const tag = uniq("ipa").toLowerCase();
  let site: any, type: any, role: any, dev: any, peer: any, eth0: any, eth1: any, peerEth: any;

  const device = async (name: string, extra: Record<string, unknown> = {}) =>
    (await post("/api/dcim/devices/", { name, device_type: type.id, device_role: role.id, site: site.id, status: "active", ...extra })).body;
  const iface = async (d: any, name: string, extra: Record<string, unknown> = {}) =>
    (await post("/api/dcim/interfaces/", { device: d.id, name, type: "1000base-t", ...extra })).body;
  const ip = (address: string, on?: any, extra: Record<string, unknown> = {}) =>
    post("/api/ipam/ip-addresses/", { address, status: "active", ...(on ? { assigned_object_type: "dcim.interface", assigned_object_id: on.id } : {}), ...extra });

  const listedAddress = (res: { body: any }) => res.body.results[0].id;
  const vmInterface = async () => {
    const type = (await post("/api/virtualization/cluster-types/", { name: `${tag}-type` })).body;
    const cluster = (await post("/api/virtualization/clusters/", { name: `${tag}-cluster`, type: type.id })).body;
    const vm = (await post("/api/virtualization/virtual-machines/", { name: `${tag}-vm`, cluster: cluster.id, status: "active" })).body;
    return (await post("/api/virtualization/interfaces/", { virtual_machine: vm.id, name: "eth0" })).body;
  };

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "Box" })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    dev = await device(`${tag}-dev`);
    peer = await device(`${tag}-peer`);
    eth0 = await iface(dev, "eth0");
    eth1 = await iface(dev, "eth1");
    peerEth = await iface(peer, "eth0");
  });

  it("assigns by type and id and nests the resolved interface, in 1.2 and 1.3 alike", async () => {
    const res = await ip("198.51.100.1/24", eth0);
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.deep.include({ assigned_object_type: "dcim.interface", assigned_object_id: eth0.id });
    expect(res.body.assigned_object).to.deep.equal({
      id: eth0.id, display: "eth0", url: eth0.url, name: "eth0", cable: null,
      device: { id: dev.id, display: dev.display, url: dev.url, name: dev.name },
    });
    for (const version of ["1.2", "1.3"]) {
      const read = await get(`/api/ipam/ip-addresses/${res.body.id}/`, { headers: { Accept: `application/json; version=${version}` } });
      expect(read.headers.get("api-version")).to.equal(version);
      expect(read.body.assigned_object, version).to.deep.equal(res.body.assigned_object);
      expect(read.body.nat_outside, version).to.deep.equal(version === "1.2" ? null : []);
    }
    const bare = (await ip("198.51.100.2/24")).body;
    expect(bare).to.deep.include({ assigned_object_type: null, assigned_object_id: null, assigned_object: null });
    const moved = await patch(`/api/ipam/ip-addresses/${bare.id}/`, { assigned_object_type: "dcim.interface", assigned_object_id: eth1.id });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.assigned_object.name).to.equal("eth1");
    const cleared = await patch(`/api/ipam/ip-addresses/${bare.id}/`, { assigned_object_type: null, assigned_object_id: null });
    expect(cleared.body.assigned_object).to.equal(null);
  });

  // The collection's inventory plugin reads it to decide which interfaces to fetch addresses for.
  it("a device interface counts the addresses assigned to it (count_ipaddresses), in every version and in write replies", async () => {
    const made = await iface(dev, "count0");
    expect(made.count_ipaddresses).to.equal(0);
    const other = await iface(peer, "count0");
    for (const address of ["203.0.113.1/24", "2001:db8:77::1/64"]) expect((await ip(address, made)).status).to.equal(201);
    expect((await ip("203.0.113.2/24", other)).status).to.equal(201);
    expect((await ip("203.0.113.3/24")).status).to.equal(201);
    for (const version of ["1.2", "1.3"]) {
      const read = await get(`/api/dcim/interfaces/${made.id}/`, { headers: { Accept: `application/json; version=${version}` } });
      expect(read.body.count_ipaddresses, version).to.equal(2);
    }
    const listed = (await get(`/api/dcim/interfaces/?device_id=${dev.id}&device_id=${peer.id}&name=count0`)).body.results;
    expect(listed.map((x: any) => [x.id, x.count_ipaddresses])).to.have.deep.members([[made.id, 2], [other.id, 1]]);
    const renamed = await patch(`/api/dcim/interfaces/${made.id}/`, { description: "counted" });
    expect(renamed.body.count_ipaddresses).to.equal(2);
    // An address moved to a VM interface no longer counts here.
    const vmIface = await vmInterface();
    const moved = await patch(`/api/ipam/ip-addresses/${listedAddress(await get(`/api/ipam/ip-addresses/?interface_id=${other.id}`))}/`,
      { assigned_object_type: "virtualization.vminterface", assigned_object_id: vmIface.id });
    expect(moved.status, moved.text).to.equal(200);
    expect((await get(`/api/dcim/interfaces/${other.id}/`)).body.count_ipaddresses).to.equal(0);
  });

  it("refuses half an assignment, a wrong type, an unknown object, and changes nothing", async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ assigned_object_type: "dcim.interface" }, { __all__: ["assigned_object_type and assigned_object_id must either both be null or both be non-null"] }],
      [{ assigned_object_id: eth0.id }, { __all__: ["assigned_object_type and assigned_object_id must either both be null or both be non-null"] }],
      [{ assigned_object_type: "dcim.device", assigned_object_id: dev.id }, { assigned_object_type: ["Invalid content type: dcim.device"] }],
      [{ assigned_object_type: "interface", assigned_object_id: eth0.id }, { assigned_object_type: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."] }],
      [{ assigned_object_type: "dcim.interface", assigned_object_id: MISSING_ID }, { assigned_object_id: [`No dcim.interface with ID ${MISSING_ID} exists.`] }],
      // A device's id is no interface's: the pair must name one object.
      [{ assigned_object_type: "dcim.interface", assigned_object_id: dev.id }, { assigned_object_id: [`No dcim.interface with ID ${dev.id} exists.`] }],
      [{ assigned_object_type: "dcim.interface", assigned_object_id: "eth0" }, { assigned_object_id: ["Must be a valid UUID."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post("/api/ipam/ip-addresses/", { address: "203.0.113.9/24", status: "active", ...body });
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("ipam_ipaddress", { address: "203.0.113.9/24" })).to.equal(0);
  });

  it("filters by device (name or id, a chassis master's members too), interface and assignment", async () => {
    const a = (await ip("10.77.0.1/24", eth0)).body;
    const b = (await ip("10.77.0.2/24", peerEth)).body;
    const loose = (await ip("10.77.0.3/24")).body;
    const list = async (query: string) => {
      const res = await get(`/api/ipam/ip-addresses/?parent=10.77.0.0/24&${query}`);
      expect(res.status, res.text).to.equal(200);
      return res.body.results.map((x: any) => x.address).sort();
    };
    expect(await list(`device=${dev.name}`)).to.deep.equal([a.address]);
    expect(await list(`device_id=${peer.id}`)).to.deep.equal([b.address]);
    expect(await list(`device=${dev.name}&device=${peer.name}`)).to.deep.equal([a.address, b.address]);
    expect(await list("device=nothing-here")).to.deep.equal([]);
    expect(await list(`interface_id=${peerEth.id}`)).to.deep.equal([b.address]);
    expect(await list(`interface=${eth0.id}`)).to.deep.equal([a.address]);
    expect(await list("assigned_to_interface=false")).to.deep.equal([loose.address]);
    expect(await list("assigned_to_interface=true")).to.deep.equal([a.address, b.address]);
    const badId = await get("/api/ipam/ip-addresses/?device_id=12");
    expect([badId.status, badId.body]).to.deep.equal([400, { device_id: ["Enter a valid UUID."] }]);
    const badIface = await get(`/api/ipam/ip-addresses/?interface=${MISSING_ID}`);
    expect(badIface.status).to.equal(400);
    expect(badIface.body).to.have.key("interface");

    // A virtual chassis master answers for its members' interfaces (not management-only ones).
    const vc = (await post("/api/dcim/virtual-chassis/", { name: `${tag}-vc` })).body;
    await patch(`/api/dcim/devices/${dev.id}/`, { virtual_chassis: vc.id, vc_position: 1 });
    await patch(`/api/dcim/devices/${peer.id}/`, { virtual_chassis: vc.id, vc_position: 2 });
    await patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: dev.id });
    expect(await list(`device=${dev.name}`)).to.deep.equal([a.address, b.address]);
    expect(await list(`device=${peer.name}`)).to.deep.equal([b.address]);
    await patch(`/api/dcim/interfaces/${peerEth.id}/`, { mgmt_only: true });
    expect(await list(`device=${dev.name}`)).to.deep.equal([a.address]);
    await patch(`/api/dcim/interfaces/${peerEth.id}/`, { mgmt_only: false });
    await patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: null });
    await patch(`/api/dcim/devices/${dev.id}/`, { virtual_chassis: null, vc_position: null });
    await patch(`/api/dcim/devices/${peer.id}/`, { virtual_chassis: null, vc_position: null });
    expect((await del(`/api/dcim/virtual-chassis/${vc.id}/`)).status).to.equal(204);
  });

  it("a primary IP must sit on the device's interfaces, and stays there", async () => {
    const mine = (await ip("192.0.2.10/24", eth0)).body;
    const theirs = (await ip("192.0.2.11/24", peerEth)).body;
    const loose = (await ip("192.0.2.12/24")).body;
    for (const other of [theirs, loose]) {
      const res = await patch(`/api/dcim/devices/${dev.id}/`, { primary_ip4: other.id });
      expect([res.status, res.body]).to.deep.equal([400, { primary_ip4: [`The specified IP address (${other.address}) is not assigned to this device.`] }]);
    }
    // The outside address of a NAT pair may be primary when its inside address is on the device.
    const outside = (await ip("203.0.113.10/24", undefined, { nat_inside: mine.id })).body;
    expect((await patch(`/api/dcim/devices/${dev.id}/`, { primary_ip4: outside.id })).status).to.equal(200);
    const ok = await patch(`/api/dcim/devices/${dev.id}/`, { primary_ip4: mine.id });
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.body.primary_ip4.id).to.equal(mine.id);
    const twice = await patch(`/api/dcim/devices/${peer.id}/`, { primary_ip4: mine.id });
    expect([twice.status, twice.body]).to.deep.equal([400, { primary_ip4: [`The specified IP address (${mine.address}) is not assigned to this device.`] }]);
    const away = await patch(`/api/ipam/ip-addresses/${mine.id}/`, { assigned_object_type: "dcim.interface", assigned_object_id: peerEth.id });
    expect([away.status, away.body]).to.deep.equal([400, { interface: [`IP address is primary for device ${dev.name} but not assigned to it!`] }]);
    const off = await patch(`/api/ipam/ip-addresses/${mine.id}/`, { assigned_object_type: null, assigned_object_id: null });
    expect([off.status, off.body]).to.deep.equal([400, { interface: [`IP address is primary for device ${dev.name} but not assigned to it!`] }]);
    expect((await row("ipam_ipaddress", mine.id))!.assigned_object_id).to.equal(eth0.id);
    expect((await patch(`/api/ipam/ip-addresses/${mine.id}/`, { assigned_object_type: "dcim.interface", assigned_object_id: eth1.id })).status).to.equal(200);
    await patch(`/api/dcim/devices/${dev.id}/`, { primary_ip4: null });
  });

  it("a VRF that enforces unique space refuses a duplicate host, except for shared roles", async () => {
    const vrf = (await post("/api/ipam/vrfs/", { name: `${tag}-vrf`, rd: `${process.pid % 60000}:77` })).body;
    const lax = (await post("/api/ipam/vrfs/", { name: `${tag}-lax`, enforce_unique: false })).body;
    expect((await ip("172.16.5.1/24", undefined, { vrf: vrf.id })).status).to.equal(201);
    const dup = await ip("172.16.5.1/16", undefined, { vrf: vrf.id });
    expect([dup.status, dup.body]).to.deep.equal([400, { address: [`Duplicate IP address found in VRF ${vrf.name} (${vrf.rd}): 172.16.5.1/24`] }]);
    expect((await ip("172.16.5.1/24", undefined, { vrf: vrf.id, role: "vip" })).status).to.equal(201);
    expect((await ip("172.16.5.1/24", undefined, { vrf: lax.id })).status).to.equal(201);
    expect((await ip("172.16.5.1/24", undefined, { vrf: lax.id })).status).to.equal(201);
    const slaac = await ip("172.16.6.1/24", undefined, { status: "slaac" });
    expect([slaac.status, slaac.body]).to.deep.equal([400, { status: ["Only IPv6 addresses can be assigned SLAAC status"] }]);
    const dns = (await ip("172.16.6.2/24", undefined, { dns_name: "Router.Example.COM" })).body;
    expect(dns.dns_name).to.equal("router.example.com");
  });

  it("deleting an interface, or its device, deletes the addresses on it", async () => {
    const gone = await device(`${tag}-gone`);
    const port = await iface(gone, "eth9");
    const kept = await iface(gone, "eth8");
    const a = (await ip("100.64.9.1/24", port)).body;
    const b = (await ip("100.64.9.2/24", kept)).body;
    await patch(`/api/dcim/devices/${gone.id}/`, { primary_ip4: b.id });
    expect((await del(`/api/dcim/interfaces/${port.id}/`)).status).to.equal(204);
    expect(await row("ipam_ipaddress", a.id)).to.equal(undefined);
    expect((await del(`/api/dcim/devices/${gone.id}/`)).status).to.equal(204);
    expect(await row("ipam_ipaddress", b.id)).to.equal(undefined);
    expect(await rows("extras_tag_assignment", { object_id: b.id })).to.equal(0);
  });
});

describe("inventory e2e: IP addresses on virtual machine interfaces", () => {
  const tag = uniq("ipvm").toLowerCase();
  let vm: any, other: any, eth: any, otherEth: any;

  before(async () => {
    const type = (await post("/api/virtualization/cluster-types/", { name: `${tag}-type` })).body;
    const cluster = (await post("/api/virtualization/clusters/", { name: `${tag}-cluster`, type: type.id })).body;
    vm = (await post("/api/virtualization/virtual-machines/", { name: `${tag}-vm`, cluster: cluster.id, status: "active" })).body;
    other = (await post("/api/virtualization/virtual-machines/", { name: `${tag}-other`, cluster: cluster.id, status: "active" })).body;
    eth = (await post("/api/virtualization/interfaces/", { virtual_machine: vm.id, name: "eth0" })).body;
    otherEth = (await post("/api/virtualization/interfaces/", { virtual_machine: other.id, name: "eth0" })).body;
  });

  const ip = (address: string, on: any) =>
    post("/api/ipam/ip-addresses/", { address, status: "active", assigned_object_type: "virtualization.vminterface", assigned_object_id: on.id });

  it("nests the VM interface, filters by machine and interface, and keeps primary IPs on the machine", async () => {
    const a = await ip("100.65.0.1/24", eth);
    expect(a.status, a.text).to.equal(201);
    expect(a.body.assigned_object).to.deep.equal({
      id: eth.id, url: eth.url, display: "eth0", name: "eth0",
      virtual_machine: { id: vm.id, url: vm.url, display: vm.display, name: vm.name },
    });
    const b = (await ip("100.65.0.2/24", otherEth)).body;
    const list = async (query: string) => (await get(`/api/ipam/ip-addresses/?parent=100.65.0.0/24&${query}`)).body.results.map((x: any) => x.address);
    expect(await list(`virtual_machine=${vm.name}`)).to.deep.equal([a.body.address]);
    expect(await list(`virtual_machine_id=${other.id}`)).to.deep.equal([b.address]);
    expect(await list(`vminterface_id=${eth.id}`)).to.deep.equal([a.body.address]);
    expect(await list(`vminterface=${otherEth.id}`)).to.deep.equal([b.address]);
    const wrong = await patch(`/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: b.id });
    expect([wrong.status, wrong.body]).to.deep.equal([400, { primary_ip4: [`The specified IP address (${b.address}) is not assigned to this VM.`] }]);
    const ok = await patch(`/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: a.body.id });
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.body.primary_ip.id).to.equal(a.body.id);
    const away = await patch(`/api/ipam/ip-addresses/${a.body.id}/`, { assigned_object_type: "virtualization.vminterface", assigned_object_id: otherEth.id });
    expect([away.status, away.body]).to.deep.equal([400, { vminterface: [`IP address is primary for virtual machine ${vm.name} but not assigned to it!`] }]);
    expect((await del(`/api/virtualization/interfaces/${otherEth.id}/`)).status).to.equal(204);
    expect(await row("ipam_ipaddress", b.id)).to.equal(undefined);
  });
});
