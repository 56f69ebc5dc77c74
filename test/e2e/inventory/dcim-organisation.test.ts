// DCIM organisation over HTTP: manufacturers, device types, platforms, device and rack roles,
// rack groups (a tree) and racks. Related objects by id and by attribute dictionary, the
// nested and brief shapes with their counts, Nautobot's filters (tree descendants, reverse
// `racks` / `has_racks`), unique sets, and protect / cascade / set-null on delete.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: dcim organisation", () => {
  it("device types take their manufacturer by attributes; shapes and counts are Nautobot's", async () => {
    const slug = uniq("acme").toLowerCase();
    const maker = await post("/api/dcim/manufacturers/", { name: slug, description: "Racks and routers" });
    expect(maker.status, maker.text).to.equal(201);
    const type = await post("/api/dcim/device-types/", { manufacturer: { slug }, model: "X1 Router", u_height: 2, subdevice_role: "parent" });
    expect(type.status, type.text).to.equal(201);
    expect(type.body).to.deep.include({ display: `${slug} X1 Router`, model: "X1 Router", slug: "x1-router", u_height: 2, is_full_depth: true, part_number: "" });
    expect(type.body.subdevice_role).to.deep.equal({ value: "parent", label: "Parent" });
    // Nested inside another object: no counts.
    expect(Object.keys(type.body.manufacturer).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
    const brief = await get(`/api/dcim/manufacturers/${maker.body.id}/?brief=1`);
    expect(brief.body).to.deep.include({ name: slug, devicetype_count: 1 });
    const full = await get(`/api/dcim/manufacturers/${maker.body.id}/`);
    expect(full.body).to.deep.include({ devicetype_count: 1, platform_count: 0, description: "Racks and routers" });
    const typeBrief = await get(`/api/dcim/device-types/${type.body.id}/?brief=1`);
    expect(Object.keys(typeBrief.body).sort()).to.deep.equal(["device_count", "display", "id", "manufacturer", "model", "slug", "url"]);

    const twin = await post("/api/dcim/device-types/", { manufacturer: maker.body.id, model: "X1 Router" });
    expect(twin.status).to.equal(400);
    expect(twin.body).to.deep.equal({ non_field_errors: ["The fields manufacturer, model must make a unique set."] });

    expect((await get(`/api/dcim/manufacturers/?device_types=x1-router&name=${slug}`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/manufacturers/?has_device_types=false&name=${slug}`)).body.count).to.equal(0);
    expect((await get(`/api/dcim/device-types/?manufacturer=${slug}`)).body.results.map((t: { id: string }) => t.id)).to.deep.equal([type.body.id]);
    const unknown = await get("/api/dcim/manufacturers/?device_types=no-such-type");
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.deep.equal({ device_types: ["Select a valid choice. no-such-type is not one of the available choices."] });

    // A manufacturer with device types or platforms is protected.
    const platform = await post("/api/dcim/platforms/", { name: uniq("IOS"), manufacturer: maker.body.id, napalm_driver: "ios", napalm_args: { secret: "x" } });
    expect(platform.status, platform.text).to.equal(201);
    expect(platform.body.napalm_args).to.deep.equal({ secret: "x" });
    const blocked = await del(`/api/dcim/manufacturers/${maker.body.id}/`);
    expect(blocked.status).to.equal(409);
    expect(await rows("dcim_manufacturer", { id: maker.body.id })).to.equal(1);
  });

  it("device roles and rack roles have colours and defaults; rack roles count and filter their racks", async () => {
    const role = await post("/api/dcim/device-roles/", { name: uniq("Core") });
    expect(role.status, role.text).to.equal(201);
    expect(role.body).to.deep.include({ color: "9e9e9e", vm_role: true, description: "" });
    const bad = await post("/api/dcim/rack-roles/", { name: uniq("Bad"), color: "red" });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ color: ["Enter a valid hexadecimal RGB color code."] });
  });

  it("rack groups nest within a site; racks filter by group including its descendants; deletes protect, cascade or clear", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("RackSite"), status: "active" });
    const room = await post("/api/dcim/rack-groups/", { name: "Room 1", site: site.body.id });
    expect(room.status, room.text).to.equal(201);
    const row = await post("/api/dcim/rack-groups/", { name: "Row A", site: { slug: site.body.slug }, parent: room.body.id });
    expect(row.status, row.text).to.equal(201);
    expect(row.body._depth).to.equal(1);
    const again = await post("/api/dcim/rack-groups/", { name: "Room 1", site: site.body.id });
    expect(again.status).to.equal(400);
    expect(again.body).to.deep.equal({ non_field_errors: ["The fields site, name must make a unique set."] });

    const roleName = uniq("Network");
    const role = await post("/api/dcim/rack-roles/", { name: roleName });
    const rack = await post("/api/dcim/racks/", { name: "R1", site: site.body.id, group: row.body.id, role: { name: roleName }, status: "active", facility_id: "F-1" });
    expect(rack.status, rack.text).to.equal(201);
    expect(rack.body.display).to.equal("R1 (F-1)");
    expect(rack.body.width).to.deep.equal({ value: 19, label: "19 inches" });
    expect(rack.body).to.deep.include({ u_height: 42, desc_units: false, type: null, outer_unit: null, asset_tag: null, serial: "" });
    expect(rack.body.status).to.deep.equal({ value: "active", label: "Active" });
    expect(Object.keys(rack.body.group).sort()).to.deep.equal(["_depth", "display", "id", "name", "slug", "url"]);

    expect((await get(`/api/dcim/rack-groups/${room.body.id}/`)).body.rack_count).to.equal(1);
    expect((await get(`/api/dcim/rack-roles/${role.body.id}/?brief=1`)).body.rack_count).to.equal(1);
    const inRoom = await get(`/api/dcim/racks/?group=${room.body.slug}&site=${site.body.slug}`);
    expect(inRoom.body.results.map((r: { id: string }) => r.id)).to.deep.equal([rack.body.id]);
    expect((await get(`/api/dcim/rack-roles/?racks=R1&name=${roleName}`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/rack-roles/?has_racks=true&name=${roleName}`)).body.count).to.equal(1);
    expect((await get(`/api/dcim/rack-roles/?has_racks=false&name=${roleName}`)).body.count).to.equal(0);
    expect((await get(`/api/dcim/racks/?q=f-1&site=${site.body.slug}`)).body.count).to.equal(1);
    const plain = await post("/api/dcim/racks/", { name: "R2", site: site.body.id, status: "planned" });
    expect(plain.body.display).to.equal("R2");
    expect((await del(`/api/dcim/racks/${plain.body.id}/`)).status).to.equal(204);

    // The site holds a rack: protected. The role too. The group: the rack keeps going without it.
    expect((await del(`/api/dcim/sites/${site.body.id}/`)).status).to.equal(409);
    expect((await del(`/api/dcim/rack-roles/${role.body.id}/`)).status).to.equal(409);
    expect((await del(`/api/dcim/rack-groups/${row.body.id}/`)).status).to.equal(204);
    expect((await get(`/api/dcim/racks/${rack.body.id}/`)).body.group).to.equal(null);
    // Without racks, deleting the site takes its rack groups with it.
    expect((await del(`/api/dcim/racks/${rack.body.id}/`)).status).to.equal(204);
    expect((await del(`/api/dcim/sites/${site.body.id}/`)).status).to.equal(204);
    expect(await rows("dcim_rackgroup", { id: room.body.id })).to.equal(0);
  });

  it("rack reservations hold units the rack has and nobody else holds", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("ResSite"), status: "active" });
    const rack = await post("/api/dcim/racks/", { name: "RR", site: site.body.id, status: "active", u_height: 10 });
    const me = (await get("/api/users/users/?limit=1")).body.results[0];
    const first = await post("/api/dcim/rack-reservations/", { rack: rack.body.id, units: [1, 2, 3], user: me.id, description: "Lab gear" });
    expect(first.status, first.text).to.equal(201);
    expect(first.body).to.deep.include({ units: [1, 2, 3], description: "Lab gear", display: "Reservation for rack RR" });
    const cases: Array<[unknown, string]> = [
      [[3, 4], "The following units have already been reserved: 3"],
      [[9, 11, 12], "Invalid unit(s) for 10U rack: 11, 12"],
      [["x"], "A valid integer is required."],
    ];
    for (const [units, message] of cases) {
      const res = await post("/api/dcim/rack-reservations/", { rack: rack.body.id, units, user: me.id, description: "Again" });
      expect(res.status, JSON.stringify(units)).to.equal(400);
      expect(res.body).to.deep.equal({ units: [message] });
    }
    // Its own units are no conflict when the reservation is edited.
    expect((await patch(`/api/dcim/rack-reservations/${first.body.id}/`, { units: [1, 2, 3, 4] })).status).to.equal(200);
    const racing = await Promise.all(Array.from({ length: 10 }, () => post("/api/dcim/rack-reservations/", { rack: rack.body.id, units: [7], user: me.id, description: "Race" })));
    expect(racing.map((r) => r.status).sort()).to.deep.equal([201, ...Array(9).fill(400)]);
  });
});
