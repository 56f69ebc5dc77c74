// Config contexts over HTTP: schemas that are JSON Schemas themselves; contexts whose data
// follows their schema, assigned by region (ancestors too), site, role, tenancy and tags;
// a device's config_context merged by weight with its local data on top, in its one read;
// exclude=config_context; local context data checked against the device's own schema.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { statements } from "../../support/statements.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: config contexts", () => {
  const tag = uniq("cc").toLowerCase();
  let device: any, site: any, parentRegion: any, role: any, label: any;

  before(async () => {
    parentRegion = (await post("/api/dcim/regions/", { name: `${tag}-eu` })).body;
    const region = (await post("/api/dcim/regions/", { name: `${tag}-de`, parent: parentRegion.id })).body;
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active", region: region.id })).body;
    role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    label = (await post("/api/extras/tags/", { name: `${tag}-gold` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "CC" })).body;
    device = (await post("/api/dcim/devices/", {
      name: `${tag}-r1`, device_type: type.id, device_role: role.id, site: site.id, status: "active", tags: [label.id],
      local_context_data: { ntp: { servers: ["10.0.0.9"] }, snmp: "local" },
    })).body;
  });

  it("schemas are JSON Schemas; data that does not follow its schema is refused, naming it", async () => {
    const bad = await post("/api/extras/config-context-schemas/", { name: `${tag} broken`, data_schema: { type: "nonsense" } });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.have.property("data_schema");
    const schema = await post("/api/extras/config-context-schemas/", {
      name: `${tag} NTP`, data_schema: { type: "object", properties: { ntp: { type: "object" } }, required: ["ntp"] },
    });
    expect(schema.status, schema.text).to.equal(201);
    expect(schema.body).to.deep.include({ owner_content_type: null, owner_object_id: null, owner: null, slug: `${tag}-ntp` });
    const refused = await post("/api/extras/config-contexts/", { name: `${tag}-x`, data: { dns: [] }, schema: schema.body.id });
    expect(refused.status).to.equal(400);
    expect(refused.body.data[0]).to.equal(`Validation using the JSON Schema ${tag} NTP failed.`);
    expect(refused.body.data).to.have.length(2);
    expect(await rows("extras_configcontext", { name: `${tag}-x` })).to.equal(0);
    // A device's local data against its own schema.
    const local = await patch(`/api/dcim/devices/${device.id}/`, { local_context_schema: schema.body.id, local_context_data: { snmp: "x" } });
    expect(local.status).to.equal(400);
    expect(local.body.local_context_data[0]).to.equal(`Validation using the JSON Schema ${tag} NTP failed.`);
    const without = await patch(`/api/dcim/devices/${device.id}/`, { local_context_schema: schema.body.id, local_context_data: null });
    expect(without.body).to.deep.equal({ local_context_schema: ["Local context data must exist for a schema to be applied."] });
    expect((await patch(`/api/dcim/devices/${device.id}/`, { local_context_schema: schema.body.id })).status).to.equal(200);
    expect((await patch(`/api/dcim/devices/${device.id}/`, { local_context_schema: null })).status).to.equal(200);
  });

  it("a device's config_context: matching active contexts deep-merged by weight, local data on top", async () => {
    const made = async (body: Record<string, unknown>) => {
      const res = await post("/api/extras/config-contexts/", body);
      expect(res.status, res.text).to.equal(201);
      return res.body;
    };
    const base = await made({ name: `${tag}-base`, weight: 100, regions: [parentRegion.id], data: { ntp: { servers: ["1.1.1.1"], prefer: true }, dns: ["9.9.9.9"], snmp: "global" } });
    expect(base).to.deep.include({ weight: 100, is_active: true, owner: null, tags: [] });
    expect(base.regions.map((r: any) => r.id)).to.deep.equal([parentRegion.id]);
    await made({ name: `${tag}-role`, weight: 200, roles: [{ slug: role.slug }], tags: [label.slug], data: { dns: ["8.8.8.8"], syslog: { host: "log1" } } });
    await made({ name: `${tag}-off`, weight: 300, is_active: false, data: { dns: ["never"] } });
    await made({ name: `${tag}-elsewhere`, weight: 400, sites: [(await post("/api/dcim/sites/", { name: `${tag}-far`, status: "active" })).body.id], data: { dns: ["no"] } });
    const tagsRefused = await post("/api/extras/config-contexts/", { name: `${tag}-t`, tags: ["no-such-tag"], data: {} });
    expect(tagsRefused.body).to.deep.equal({ tags: ["Object with slug=no-such-tag does not exist."] });
    // The first item refused, in order, is the one reported, though all are read at once.
    const later = await post("/api/extras/config-contexts/", { name: `${tag}-t`, tags: [label.slug, "no-such-tag", 7], data: {} });
    expect(later.body).to.deep.equal({ tags: ["Object with slug=no-such-tag does not exist."] });
    const first = await post("/api/extras/config-contexts/", { name: `${tag}-t`, tags: [7, "no-such-tag"], data: {} });
    expect(first.body).to.deep.equal({ tags: ["Invalid value."] });

    // Nautobot's filter names for the assignments.
    const names = async (q: string) => (await get(`/api/extras/config-contexts/?name__isw=${tag}&${q}`)).body.results.map((c: any) => c.name).sort();
    expect(await names(`region=${parentRegion.slug}`)).to.deep.equal([`${tag}-base`]);
    expect(await names(`role_id=${role.id}`)).to.deep.equal([`${tag}-role`]);
    expect(await names(`tag=${label.slug}`)).to.deep.equal([`${tag}-role`]);
    expect(await names(`role__n=${role.slug}`)).to.deep.equal([`${tag}-base`, `${tag}-elsewhere`, `${tag}-off`]);
    expect((await get("/api/extras/config-contexts/?region=no-such-region")).body).to.deep.equal({ region: ["Select a valid choice. no-such-region is not one of the available choices."] });

    const seen = (await get(`/api/dcim/devices/${device.id}/`)).body;
    expect(seen.config_context).to.deep.equal({
      ntp: { servers: ["10.0.0.9"], prefer: true }, dns: ["8.8.8.8"], snmp: "local", syslog: { host: "log1" },
    });
    expect(seen.local_context_data).to.deep.equal({ ntp: { servers: ["10.0.0.9"] }, snmp: "local" });
    // exclude=config_context leaves it out, on detail and list.
    expect((await get(`/api/dcim/devices/${device.id}/?exclude=config_context`)).body).to.not.have.property("config_context");
    const listed = (await get(`/api/dcim/devices/?id=${device.id}&exclude=config_context`)).body.results[0];
    expect(listed).to.not.have.property("config_context");
    expect(listed.name).to.equal(device.name);
    expect((await get(`/api/dcim/devices/?id=${device.id}`)).body.results[0].config_context.syslog).to.deep.equal({ host: "log1" });
    // One read for the list, contexts and all.
    const counted = await statements(`/api/dcim/devices/?site=${site.slug}`);
    expect(counted.sql, counted.sql.join("\n")).to.have.length(1);
    // Deactivating a context removes its data.
    const ctxs = (await get(`/api/extras/config-contexts/?name=${tag}-role`)).body.results;
    expect((await patch(`/api/extras/config-contexts/${ctxs[0].id}/`, { is_active: false })).status).to.equal(200);
    expect((await get(`/api/dcim/devices/${device.id}/`)).body.config_context.dns).to.deep.equal(["9.9.9.9"]);
    expect((await del(`/api/extras/config-contexts/${ctxs[0].id}/`)).status).to.equal(204);
  });

  it("merges nested objects level by level, by tenant group, tenant and platform; values of other types replace", async () => {
    const group = (await post("/api/tenancy/tenant-groups/", { name: `${tag}-tg` })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: `${tag}-tenant`, group: group.id })).body;
    const other = (await post("/api/tenancy/tenants/", { name: `${tag}-other` })).body;
    const platform = (await post("/api/dcim/platforms/", { name: `${tag}-os` })).body;
    const plain = (await post("/api/dcim/sites/", { name: `${tag}-plain`, status: "active" })).body;
    const box = (await post("/api/dcim/devices/", {
      name: `${tag}-r2`, device_type: device.device_type.id, device_role: role.id, site: plain.id, status: "active",
      tenant: tenant.id, platform: platform.id, local_context_data: { a: { b: { c: 2 } }, s: [] },
    })).body;
    const made = async (body: Record<string, unknown>) => expect((await post("/api/extras/config-contexts/", body)).status).to.equal(201);
    await made({ name: `${tag}-m1`, weight: 10, tenant_groups: [group.id], data: { a: { b: { c: 1, d: [1, 2] }, keep: "x" }, s: "scalar", o: { p: 1 }, n: null } });
    await made({ name: `${tag}-m2`, weight: 20, tenants: [tenant.id], platforms: [platform.id], data: { a: { b: { d: [3], g: { h: true } } }, s: { now: "object" }, o: "now scalar", n: { x: 1 } } });
    await made({ name: `${tag}-m3`, weight: 30, platforms: [platform.id], tenants: [other.id], data: { a: "never" } });
    const expected = { a: { b: { c: 2, d: [3], g: { h: true } }, keep: "x" }, s: [], o: "now scalar", n: { x: 1 } };
    expect((await get(`/api/dcim/devices/${box.id}/`)).body.config_context).to.deep.equal(expected);
    expect((await get(`/api/dcim/devices/?platform_id=${platform.id}`)).body.results.map((d: any) => d.config_context)).to.deep.equal([expected]);
    // Without its tenant the device matches only the platform's contexts that name no tenant: none.
    expect((await patch(`/api/dcim/devices/${box.id}/`, { tenant: null, local_context_data: null })).body.config_context).to.deep.equal({});
  });

  it("a list gives each device what its own read does, each distinct set of contexts merged once", async () => {
    const group = `${tag}-set`;
    const sites = await Promise.all([1, 2].map(async (n) => (await post("/api/dcim/sites/", { name: `${group}-${n}`, status: "active" })).body));
    const made = async (body: Record<string, unknown>) => expect((await post("/api/extras/config-contexts/", body)).status).to.equal(201);
    await made({ name: `${group}-a`, weight: 5, sites: [sites[0].id], data: { zone: { a: 1, list: [1] }, name: "a" } });
    await made({ name: `${group}-b`, weight: 6, sites: [sites[1].id], data: { zone: { b: 2 }, name: "b" } });
    await made({ name: `${group}-both`, weight: 7, sites: sites.map((s) => s.id), data: { zone: { list: [2] }, both: true } });
    const local = [null, { zone: { a: 9 } }, null, { name: "mine" }, null, null];
    const boxes = [];
    for (const [n, data] of local.entries()) {
      const box = await post("/api/dcim/devices/", {
        name: `${group}-d${n}`, device_type: device.device_type.id, device_role: role.id, site: sites[n % 2].id, status: "active", local_context_data: data,
      });
      expect(box.status, box.text).to.equal(201);
      boxes.push(box.body);
    }
    const listed = (await get(`/api/dcim/devices/?name__isw=${group}-d&limit=100`)).body.results;
    expect(listed.map((d: any) => d.name)).to.deep.equal(boxes.map((b) => b.name));
    for (const [n, box] of boxes.entries()) {
      const own = (await get(`/api/dcim/devices/${box.id}/`)).body.config_context;
      expect(listed[n].config_context, box.name).to.deep.equal(own);
    }
    expect(listed[0].config_context).to.deep.equal({ zone: { a: 1, list: [2] }, name: "a", both: true });
    expect(listed[1].config_context).to.deep.equal({ zone: { b: 2, list: [2], a: 9 }, name: "b", both: true });
    expect(listed[2].config_context).to.deep.equal(listed[0].config_context);
    expect(listed[3].config_context).to.deep.equal({ zone: { b: 2, list: [2] }, name: "mine", both: true });
    // The list's one statement gathers the sets over its rows as a whole.
    const counted = await statements(`/api/dcim/devices/?name__isw=${group}-d`);
    expect(counted.sql).to.have.length(1);
    expect(counted.sql[0]).to.match(/armature_context_merges\([^)]*\) OVER \(\)/);
  });

  it("every kind of assignment: a list gives each device and machine what its own read does", async () => {
    const group = `${tag}-kinds`;
    const made = async (path: string, body: Record<string, unknown>) => {
      const res = await post(path, body);
      expect(res.status, res.text).to.equal(201);
      return res.body;
    };
    const top = await made("/api/dcim/regions/", { name: `${group}-top` });
    const region = await made("/api/dcim/regions/", { name: `${group}-low`, parent: top.id });
    const site = await made("/api/dcim/sites/", { name: `${group}-site`, status: "active", region: region.id });
    const floor = await made("/api/dcim/location-types/", { name: `${group} floor`, content_types: ["dcim.device", "virtualization.cluster"] });
    const rack = await made("/api/dcim/location-types/", { name: `${group} rack`, parent: floor.id, content_types: ["dcim.device"] });
    const hall = await made("/api/dcim/locations/", { name: `${group}-hall`, location_type: floor.id, site: site.id, status: "active" });
    const row = await made("/api/dcim/locations/", { name: `${group}-row`, location_type: rack.id, parent: hall.id, status: "active" });
    const clusterGroup = await made("/api/virtualization/cluster-groups/", { name: `${group}-cg` });
    const clusterType = await made("/api/virtualization/cluster-types/", { name: `${group}-ct` });
    const cluster = await made("/api/virtualization/clusters/", { name: `${group}-cl`, type: clusterType.id, group: clusterGroup.id, site: site.id });
    const loose = await made("/api/virtualization/clusters/", { name: `${group}-loose`, type: clusterType.id });
    const mark = await made("/api/extras/tags/", { name: `${group}-mark` });
    const maker = await made("/api/dcim/manufacturers/", { name: `${group}-maker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${group}-T` });
    const otherType = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${group}-U` });
    const context = (name: string, weight: number, assigned: Record<string, unknown>) =>
      made("/api/extras/config-contexts/", { name: `${group}-${name}`, weight, ...assigned, data: { [name]: true, last: name } });
    await context("region", 1, { regions: [top.id] });
    await context("location", 2, { locations: [hall.id] });
    await context("type", 3, { device_types: [type.id] });
    await context("clustergroup", 4, { cluster_groups: [clusterGroup.id] });
    await context("cluster", 5, { clusters: [cluster.id] });
    await context("tag", 6, { tags: [mark.slug] });
    await context("never", 7, { device_types: [otherType.id], regions: [top.id] });
    const device = (name: string, body: Record<string, unknown>) =>
      made("/api/dcim/devices/", { name: `${group}-${name}`, device_type: type.id, device_role: role.id, site: site.id, status: "active", ...body });
    const devices = [
      await device("d1", { location: row.id, cluster: cluster.id, tags: [mark.id] }),
      await device("d2", {}),
      await device("d3", { location: hall.id, cluster: loose.id }),
    ];
    const listed = (await get(`/api/dcim/devices/?name__isw=${group}-d&limit=100`)).body.results;
    for (const [n, d] of devices.entries()) {
      expect(listed[n].config_context, d.name).to.deep.equal((await get(`/api/dcim/devices/${d.id}/`)).body.config_context);
    }
    expect(listed[0].config_context).to.deep.equal({ region: true, location: true, type: true, clustergroup: true, cluster: true, tag: true, last: "tag" });
    expect(listed[1].config_context).to.deep.equal({ region: true, type: true, last: "type" });
    expect(listed[2].config_context).to.deep.equal({ region: true, location: true, type: true, last: "type" });
    const vmRole = await made("/api/dcim/device-roles/", { name: `${group}-vm`, vm_role: true });
    const machines = [
      await made("/api/virtualization/virtual-machines/", { name: `${group}-m1`, cluster: cluster.id, role: vmRole.id, status: "active", tags: [mark.id] }),
      await made("/api/virtualization/virtual-machines/", { name: `${group}-m2`, cluster: loose.id, status: "active" }),
    ];
    const vms = (await get(`/api/virtualization/virtual-machines/?name__isw=${group}-m`)).body.results;
    for (const [n, m] of machines.entries()) {
      expect(vms[n].config_context, m.name).to.deep.equal((await get(`/api/virtualization/virtual-machines/${m.id}/`)).body.config_context);
    }
    // A machine takes its site (and so its regions) from its cluster; it has no device type.
    expect(vms[0].config_context).to.deep.equal({ region: true, clustergroup: true, cluster: true, tag: true, last: "tag" });
    expect(vms[1].config_context).to.deep.equal({});
  });
});
