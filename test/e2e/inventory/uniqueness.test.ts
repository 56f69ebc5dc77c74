// Duplicates refused in Nautobot's exact words: DRF's validators where the serializer builds
// the field (model and field verbose names as declared: `rack with this Asset tag already
// exists.`, `The fields group, name must make a unique set.`), Django's model validation where
// the serializer declares the field itself or drops DRF's validators (each name capitalised:
// `Device with this Site, Tenant and Name already exists.`). Nothing is written.
import { expect } from "chai";
import { patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: uniqueness texts", () => {
  const tag = uniq("unq").toLowerCase();
  let site: any, type: any, role: any, tenant: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  /** The second write is refused with exactly `errors`, and the table keeps its rows. */
  const refused = async (path: string, body: Record<string, unknown>, table: string, errors: unknown) => {
    const before = await rows(table);
    const res = await post(path, body);
    expect([res.status, res.body], path).to.deep.equal([400, errors]);
    expect(await rows(table)).to.equal(before);
  };

  before(async () => {
    site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-box` });
    role = await made("/api/dcim/device-roles/", { name: `${tag}-role` });
    tenant = await made("/api/tenancy/tenants/", { name: `${tag}-tenant` });
  });

  it("a unique field the serializer builds: DRF's words, verbose names as declared (Asset tag, name, slug)", async () => {
    await made("/api/dcim/racks/", { name: `${tag}-r1`, site: site.id, status: "active", asset_tag: `${tag}-at` });
    await refused("/api/dcim/racks/", { name: `${tag}-r2`, site: site.id, status: "active", asset_tag: `${tag}-at` }, "dcim_rack",
      { asset_tag: ["rack with this Asset tag already exists."] });
    await refused("/api/dcim/sites/", { name: `${tag}-site`, slug: `${tag}-other`, status: "active" }, "dcim_site",
      { name: ["site with this name already exists."] });
    await refused("/api/dcim/sites/", { name: `${tag}-other`, slug: site.slug, status: "active" }, "dcim_site",
      { slug: ["site with this slug already exists."] });
    await refused("/api/dcim/device-roles/", { name: `${tag}-role`, slug: `${tag}-role-2` }, "dcim_devicerole",
      { name: ["device role with this name already exists."] });
    // An update that would duplicate is worded alike.
    const other = await made("/api/dcim/racks/", { name: `${tag}-r3`, site: site.id, status: "active" });
    const res = await patch(`/api/dcim/racks/${other.id}/`, { asset_tag: `${tag}-at` });
    expect([res.status, res.body]).to.deep.equal([400, { asset_tag: ["rack with this Asset tag already exists."] }]);
  });

  it("models with declared verbose names (RIR, VRF, VLAN group) and a field's own message (User.username)", async () => {
    await made("/api/ipam/rirs/", { name: `${tag}-rir` });
    await refused("/api/ipam/rirs/", { name: `${tag}-rir`, slug: `${tag}-rir-2` }, "ipam_rir", { name: ["RIR with this name already exists."] });
    await made("/api/ipam/vrfs/", { name: `${tag}-vrf`, rd: "65000:77" });
    await refused("/api/ipam/vrfs/", { name: `${tag}-vrf2`, rd: "65000:77" }, "ipam_vrf", { rd: ["VRF with this Route distinguisher already exists."] });
    await made("/api/ipam/vlan-groups/", { name: `${tag}-vg`, site: site.id });
    await refused("/api/ipam/vlan-groups/", { name: `${tag}-vg`, slug: `${tag}-vg-2`, site: site.id }, "ipam_vlangroup",
      { non_field_errors: ["The fields site, name must make a unique set."] });
    await made("/api/users/users/", { username: `${tag}-user`, password: "secret-1" });
    await refused("/api/users/users/", { username: `${tag}-user`, password: "secret-2" }, "users_user",
      { username: ["A user with that username already exists."] });
  });

  it("unique together under a DRF validator: the serializer's field names, in the model's order", async () => {
    const group = await made("/api/dcim/rack-groups/", { name: `${tag}-rg`, site: site.id });
    await made("/api/dcim/racks/", { name: `${tag}-grouped`, site: site.id, group: group.id, status: "active" });
    await refused("/api/dcim/racks/", { name: `${tag}-grouped`, site: site.id, group: group.id, status: "active" }, "dcim_rack",
      { non_field_errors: ["The fields group, name must make a unique set."] });
    const device = await made("/api/dcim/devices/", { name: `${tag}-dev`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    await made("/api/dcim/interfaces/", { device: device.id, name: "eth0", type: "1000base-t" });
    await refused("/api/dcim/interfaces/", { device: device.id, name: "eth0", type: "1000base-t" }, "dcim_interface",
      { non_field_errors: ["The fields device, name must make a unique set."] });
  });

  it("checked by Django's model validation: capitalised verbose names, a group's joined with 'and'", async () => {
    const device = { device_type: type.id, device_role: role.id, site: site.id, status: "active", tenant: tenant.id };
    const first = await made("/api/dcim/devices/", { ...device, name: `${tag}-owned`, asset_tag: `${tag}-dat` });
    await refused("/api/dcim/devices/", { ...device, name: `${tag}-owned` }, "dcim_device",
      { __all__: ["Device with this Site, Tenant and Name already exists."] });
    await refused("/api/dcim/devices/", { ...device, name: `${tag}-owned-2`, asset_tag: `${tag}-dat` }, "dcim_device",
      { asset_tag: ["device with this Asset tag already exists."] });
    const vc = await made("/api/dcim/virtual-chassis/", { name: `${tag}-vc` });
    expect((await patch(`/api/dcim/devices/${first.id}/`, { virtual_chassis: vc.id, vc_position: 1 })).status).to.equal(200);
    const second = await made("/api/dcim/devices/", { ...device, name: `${tag}-member` });
    const taken = await patch(`/api/dcim/devices/${second.id}/`, { virtual_chassis: vc.id, vc_position: 1 });
    expect([taken.status, taken.body]).to.deep.equal([400, { __all__: ["Device with this Virtual chassis and Vc position already exists."] }]);
    expect((await patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: first.id })).status).to.equal(200);
    await refused("/api/dcim/virtual-chassis/", { name: `${tag}-vc2`, master: first.id }, "dcim_virtualchassis",
      { master: ["Virtual chassis with this Master already exists."] });
    const token = await made("/api/users/tokens/", { description: `${tag}-token` });
    await refused("/api/users/tokens/", { key: token.key }, "users_token", { key: ["Token with this Key already exists."] });
  });
});
