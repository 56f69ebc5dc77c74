// Virtualization over HTTP, as Nautobot 1.5 answers API 1.2/1.3: cluster types and groups with
// their counts; clusters at a site or location and what that asks of their host devices;
// virtual machines showing their cluster's site and location, refusing a role not for VMs,
// names twice in a cluster, and local data without an object; VM interfaces; the config
// context of a virtual machine (and a device's) matched by cluster group and cluster; the
// filters by Nautobot's names; and the counts other models show.
import { expect } from "chai";
import { del, get, patch, post, put } from "../../support/http.js";
import { statements } from "../../support/statements.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: virtualization", () => {
  const tag = uniq("virt").toLowerCase();
  let site: any, other: any, region: any, hall: any, room: any, closet: any, ctype: any, group: any, cluster: any;
  let role: any, platform: any, tenant: any, deviceType: any, deviceRole: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  const vm = (body: Record<string, unknown>) => post("/api/virtualization/virtual-machines/", { cluster: cluster.id, status: "active", ...body });

  before(async () => {
    region = await made("/api/dcim/regions/", { name: `${tag}-emea` });
    site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active", region: region.id });
    other = await made("/api/dcim/sites/", { name: `${tag}-other`, status: "active" });
    const floor = await made("/api/dcim/location-types/", { name: `${tag} Floor`, content_types: ["dcim.device", "virtualization.cluster"] });
    const cabinet = await made("/api/dcim/location-types/", { name: `${tag} Cabinet`, parent: floor.id, content_types: ["dcim.device"] });
    hall = await made("/api/dcim/locations/", { name: `${tag}-hall`, location_type: floor.id, site: site.id, status: "active" });
    room = await made("/api/dcim/locations/", { name: `${tag}-room`, location_type: floor.id, site: site.id, status: "active" });
    closet = await made("/api/dcim/locations/", { name: `${tag}-closet`, location_type: cabinet.id, parent: hall.id, status: "active" });
    ctype = await made("/api/virtualization/cluster-types/", { name: `${tag} VMware` });
    group = await made("/api/virtualization/cluster-groups/", { name: `${tag} Prod`, description: "production" });
    cluster = await made("/api/virtualization/clusters/", { name: `${tag}-c1`, type: { slug: ctype.slug }, group: group.id, site: site.id, location: hall.id });
    role = await made("/api/dcim/device-roles/", { name: `${tag}-app` });
    platform = await made("/api/dcim/platforms/", { name: `${tag}-linux` });
    tenant = await made("/api/tenancy/tenants/", { name: `${tag}-acme` });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    deviceType = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: "Host" });
    deviceRole = await made("/api/dcim/device-roles/", { name: `${tag}-host`, vm_role: false });
  });

  it("cluster types and groups: Nautobot's fields, slugs, and cluster counts in brief", async () => {
    expect(ctype).to.deep.include({ name: `${tag} VMware`, slug: `${tag}-vmware`, description: "", cluster_count: 0 });
    expect(Object.keys(ctype).sort()).to.deep.equal(
      ["cluster_count", "computed_fields", "created", "custom_fields", "description", "display", "id", "last_updated", "name", "notes_url", "relationships", "slug", "url"]);
    expect(group).to.deep.include({ slug: `${tag}-prod`, description: "production" });
    const brief = (await get(`/api/virtualization/cluster-groups/${group.id}/?brief=1`)).body;
    expect(Object.keys(brief).sort()).to.deep.equal(["cluster_count", "display", "id", "name", "slug", "url"]);
    expect(brief.cluster_count).to.equal(1);
    const twice = await post("/api/virtualization/cluster-types/", { name: `${tag} VMware` });
    expect([twice.status, twice.body]).to.deep.equal([400, { name: ["cluster type with this name already exists."] }]);
    const names = async (q: string) => (await get(`/api/virtualization/cluster-types/?name__isw=${tag}&${q}`)).body.results.map((t: any) => t.name);
    expect(await names("has_clusters=true")).to.deep.equal([`${tag} VMware`]);
    expect(await names(`clusters=${cluster.name}`)).to.deep.equal([`${tag} VMware`]);
    expect(await names("has_clusters=false")).to.deep.equal([]);
    // A type in use is protected.
    expect((await del(`/api/virtualization/cluster-types/${ctype.id}/`)).status).to.equal(409);
  });

  it("clusters: nested type and group, counts, locations in their site, and filters", async () => {
    expect(cluster).to.deep.include({ name: `${tag}-c1`, comments: "", device_count: 0, virtualmachine_count: 0, tags: [] });
    expect(cluster.type).to.deep.equal({ id: ctype.id, url: ctype.url, display: ctype.name, name: ctype.name, slug: ctype.slug });
    expect(Object.keys(cluster.group).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
    expect(cluster.location.id).to.equal(hall.id);
    expect(cluster.tenant).to.equal(null);
    const brief = (await get(`/api/virtualization/clusters/${cluster.id}/?brief=1`)).body;
    expect(Object.keys(brief).sort()).to.deep.equal(["display", "id", "name", "url", "virtualmachine_count"]);

    const refused: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ site: other.id, location: hall.id }, { location: [`Location "${tag}-hall" does not belong to site "${tag}-other".`] }],
      [{ location: closet.id }, { location: [`Clusters may not associate to locations of type "${tag} Cabinet".`] }],
      [{ name: cluster.name }, { name: ["cluster with this name already exists."] }],
      [{ type: null }, { type: ["This field may not be null."] }],
    ];
    for (const [body, errors] of refused) {
      const res = await post("/api/virtualization/clusters/", { name: `${tag}-bad`, type: ctype.id, ...body });
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("virtualization_cluster", { name: `${tag}-bad` })).to.equal(0);
    // Without a site, only the location's type counts.
    const siteless = await made("/api/virtualization/clusters/", { name: `${tag}-c2`, type: ctype.id, location: room.id, tenant: tenant.id });

    const names = async (q: string) => (await get(`/api/virtualization/clusters/?name__isw=${tag}&${q}`)).body.results.map((c: any) => c.name);
    expect(await names(`type=${ctype.slug}`)).to.deep.equal([`${tag}-c1`, `${tag}-c2`]);
    expect(await names(`group=${group.slug}`)).to.deep.equal([`${tag}-c1`]);
    expect(await names(`group_id=${group.id}`)).to.deep.equal([`${tag}-c1`]);
    expect(await names(`site=${site.slug}`)).to.deep.equal([`${tag}-c1`]);
    expect(await names(`region=${region.slug}`)).to.deep.equal([`${tag}-c1`]);
    expect(await names(`location=${room.slug}`)).to.deep.equal([`${tag}-c2`]);
    expect(await names(`tenant=${tenant.slug}`)).to.deep.equal([`${tag}-c2`]);
    expect(await names("q=c2")).to.deep.equal([`${tag}-c2`]);
    expect((await get("/api/virtualization/clusters/?type=no-such-type")).body).to.deep.equal({ type: ["Select a valid choice. no-such-type is not one of the available choices."] });
    expect((await get(`/api/dcim/sites/?name__isw=${tag}&has_clusters=true`)).body.results.map((s: any) => s.id)).to.deep.equal([site.id]);
    expect((await del(`/api/virtualization/clusters/${siteless.id}/`)).status).to.equal(204);
  });

  it("virtual machines: Nautobot's shape, the cluster's site and location, and its rules in its words", async () => {
    const res = await vm({ name: `${tag}-web1`, role: role.id, platform: { slug: platform.slug }, tenant: tenant.id, vcpus: 2, memory: 4096, disk: 40 });
    expect(res.status, res.text).to.equal(201);
    const web = res.body;
    expect(Object.keys(web).sort()).to.deep.equal(["cluster", "comments", "computed_fields", "config_context", "created", "custom_fields", "disk", "display", "id",
      "last_updated", "local_context_data", "local_context_schema", "location", "memory", "name", "notes_url", "platform", "primary_ip", "primary_ip4", "primary_ip6",
      "relationships", "role", "site", "status", "tags", "tenant", "url", "vcpus"]);
    expect(web).to.deep.include({ vcpus: 2, memory: 4096, disk: 40, comments: "", primary_ip: null, local_context_data: null, display: `${tag}-web1` });
    expect(web.status).to.deep.equal({ value: "active", label: "Active" });
    expect(web.site).to.deep.equal({ id: site.id, url: site.url, display: site.name, name: site.name, slug: site.slug });
    expect(web.location.id).to.equal(hall.id);
    expect(Object.keys(web.cluster).sort()).to.deep.equal(["display", "id", "name", "url"]);
    const brief = (await get(`/api/virtualization/virtual-machines/${web.id}/?brief=1`)).body;
    expect(brief).to.deep.equal({ id: web.id, url: web.url, display: web.display, name: web.name });
    // site and location are the cluster's: not writable, and they follow it.
    const ignored = await patch(`/api/virtualization/virtual-machines/${web.id}/`, { site: other.id });
    expect(ignored.body.site.id).to.equal(site.id);
    const moved = await patch(`/api/virtualization/clusters/${cluster.id}/`, { location: room.id });
    expect(moved.status, moved.text).to.equal(200);
    expect((await get(`/api/virtualization/virtual-machines/${web.id}/`)).body.location.id).to.equal(room.id);
    expect((await patch(`/api/virtualization/clusters/${cluster.id}/`, { location: hall.id })).status).to.equal(200);

    const hostsOnly = deviceRole;
    const schema = await made("/api/extras/config-context-schemas/", { name: `${tag} needs-dns`, data_schema: { type: "object", required: ["dns"] } });
    const refused: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ name: `${tag}-web1`, tenant: tenant.id }, { __all__: ["Virtual machine with this Cluster, Tenant and Name already exists."] }],
      [{ role: hostsOnly.id }, { role: [`device role instance with id UUID('${hostsOnly.id}') does not exist.`] }],
      [{ status: "inventory" }, { status: ["Object with slug=inventory does not exist."] }],
      [{ cluster: null }, { cluster: ["This field may not be null."] }],
      [{ vcpus: -1 }, { vcpus: ["Ensure this value is greater than or equal to 0."] }],
      [{ local_context_data: [1, 2] }, { local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] }],
      [{ local_context_schema: schema.id }, { local_context_schema: ["Local context data must exist for a schema to be applied."] }],
    ];
    for (const [body, errors] of refused) {
      const bad = await vm({ name: `${tag}-bad`, ...body });
      expect([bad.status, bad.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    const failing = await vm({ name: `${tag}-bad`, local_context_schema: schema.id, local_context_data: { ntp: 1 } });
    expect(failing.status).to.equal(400);
    expect(failing.body.local_context_data[0]).to.equal(`Validation using the JSON Schema ${tag} needs-dns failed.`);
    expect(await rows("virtualization_virtualmachine", { name: `${tag}-bad` })).to.equal(0);

    // The same name without a tenant, once per cluster.
    const bare = await vm({ name: `${tag}-web1` });
    expect(bare.status, bare.text).to.equal(201);
    const again = await vm({ name: `${tag}-web1` });
    expect([again.status, again.body]).to.deep.equal([400, { name: ["A virtual machine with this name already exists in the assigned cluster."] }]);
    // A PUT of an unchanged machine is no clash with itself.
    const replaced = await put(`/api/virtualization/virtual-machines/${bare.body.id}/`, { name: `${tag}-web1`, cluster: cluster.id, status: "planned" });
    expect(replaced.status, replaced.text).to.equal(200);
    expect((await del(`/api/virtualization/virtual-machines/${bare.body.id}/`)).status).to.equal(204);

    // A primary IP is one of the machine's own addresses.
    const nic = await made("/api/virtualization/interfaces/", { virtual_machine: web.id, name: "nic0" });
    const v6 = await made("/api/ipam/ip-addresses/", { address: "2001:db8:77::1/64", status: "active", assigned_object_type: "virtualization.vminterface", assigned_object_id: nic.id });
    const withIp = await patch(`/api/virtualization/virtual-machines/${web.id}/`, { primary_ip6: v6.id });
    expect(withIp.status, withIp.text).to.equal(200);
    expect(withIp.body.primary_ip.id).to.equal(v6.id);
    expect(Object.keys(withIp.body.primary_ip).sort()).to.deep.equal(["address", "display", "family", "id", "url"]);

    // What others count.
    expect((await get(`/api/dcim/device-roles/${role.id}/?brief=1`)).body).to.deep.include({ device_count: 0, virtualmachine_count: 1 });
    expect((await get(`/api/dcim/platforms/${platform.id}/`)).body.virtualmachine_count).to.equal(1);
    expect((await get(`/api/tenancy/tenants/${tenant.id}/`)).body.virtualmachine_count).to.equal(1);
    expect((await get(`/api/dcim/sites/${site.id}/`)).body.virtualmachine_count).to.equal(1);
    expect((await get(`/api/virtualization/clusters/${cluster.id}/`)).body.virtualmachine_count).to.equal(1);
    expect((await get(`/api/dcim/device-roles/?name__isw=${tag}&has_virtual_machines=true`)).body.results.map((r: any) => r.id)).to.deep.equal([role.id]);
    expect((await get(`/api/dcim/platforms/?virtual_machines=${web.name}`)).body.results.map((p: any) => p.id)).to.deep.equal([platform.id]);
    // A cluster with machines is protected.
    expect((await del(`/api/virtualization/clusters/${cluster.id}/`)).status).to.equal(409);
  });

  it("VM interfaces: nested machine, MAC addresses in one notation, names unique per machine, filters", async () => {
    const host = await (await vm({ name: `${tag}-db1` })).body;
    const peer = await (await vm({ name: `${tag}-db2` })).body;
    const eth0 = await made("/api/virtualization/interfaces/", { virtual_machine: host.id, name: "eth0", mac_address: "001a.2b3c.4d5e", mtu: 1500 });
    expect(eth0).to.deep.include({ name: "eth0", enabled: true, mtu: 1500, mac_address: "00:1A:2B:3C:4D:5E", description: "", mode: null, parent_interface: null, bridge: null, tags: [] });
    expect(eth0).to.not.have.property("created");
    expect(eth0).to.not.have.property("status");
    expect(eth0.virtual_machine).to.deep.equal({ id: host.id, url: host.url, display: host.name, name: host.name });
    const sub = await made("/api/virtualization/interfaces/", { virtual_machine: host.id, name: "eth0.10", parent_interface: eth0.id, mode: "access" });
    expect(Object.keys(sub.parent_interface).sort()).to.deep.equal(["display", "id", "name", "url", "virtual_machine"]);
    expect(sub.mode).to.deep.equal({ value: "access", label: "Access" });
    const br = await made("/api/virtualization/interfaces/", { virtual_machine: host.id, name: "br0" });
    expect((await patch(`/api/virtualization/interfaces/${sub.id}/`, { bridge: br.id })).status).to.equal(200);
    // Nautobot 1.5 checks neither parent nor bridge against the machine through the API.
    const foreign = await post("/api/virtualization/interfaces/", { virtual_machine: peer.id, name: "eth0", parent_interface: eth0.id });
    expect(foreign.status, foreign.text).to.equal(201);

    const refused: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ name: "eth0" }, { non_field_errors: ["The fields virtual_machine, name must make a unique set."] }],
      [{ mac_address: "nope" }, { mac_address: ["Enter a valid MAC address."] }],
      [{ mtu: 0 }, { mtu: ["Ensure this value is greater than or equal to 1."] }],
      [{ mode: "trunk" }, { mode: ["trunk is not a valid choice."] }],
    ];
    for (const [body, errors] of refused) {
      const bad = await post("/api/virtualization/interfaces/", { virtual_machine: host.id, name: "bad0", ...body });
      expect([bad.status, bad.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }

    const names = async (q: string) => (await get(`/api/virtualization/interfaces/?virtual_machine_id=${host.id}&${q}`)).body.results.map((i: any) => i.name).sort();
    expect(await names("")).to.deep.equal(["br0", "eth0", "eth0.10"]);
    expect(await names(`parent_interface=${eth0.id}`)).to.deep.equal(["eth0.10"]);
    expect(await names("has_child_interfaces=true")).to.deep.equal(["eth0"]);
    expect(await names("has_bridged_interfaces=true")).to.deep.equal(["br0"]);
    expect(await names(`bridge=${br.id}`)).to.deep.equal(["eth0.10"]);
    expect(await names("mac_address=00:1A:2B:3C:4D:5E")).to.deep.equal(["eth0"]);
    expect(await names("q=eth0.")).to.deep.equal(["eth0.10"]);
    const inCluster = (await get(`/api/virtualization/interfaces/?cluster=${cluster.name}&name=eth0`)).body.results.map((i: any) => i.virtual_machine.name).sort();
    expect(inCluster).to.deep.equal([`${tag}-db1`, `${tag}-db2`]);
    expect((await get(`/api/virtualization/interfaces/?virtual_machine=${host.name}`)).body.count).to.equal(3);

    // Machines by their interfaces.
    const vms = async (q: string) => (await get(`/api/virtualization/virtual-machines/?name__isw=${tag}-db&${q}`)).body.results.map((v: any) => v.name);
    expect(await vms("mac_address=00-1a-2b-3c-4d-5e")).to.deep.equal([`${tag}-db1`]);
    expect(await vms("has_interfaces=true")).to.deep.equal([`${tag}-db1`, `${tag}-db2`]);
    expect(await vms("interfaces=br0")).to.deep.equal([`${tag}-db1`]);
    // Deleting a machine takes its interfaces (and, from a parent, its children) with it.
    expect((await del(`/api/virtualization/virtual-machines/${host.id}/`)).status).to.equal(204);
    expect(await rows("virtualization_vminterface", { virtual_machine_id: host.id })).to.equal(0);
    expect(await rows("virtualization_vminterface", { virtual_machine_id: peer.id })).to.equal(0);
    expect((await del(`/api/virtualization/virtual-machines/${peer.id}/`)).status).to.equal(204);
  });

  it("filters virtual machines by Nautobot's names", async () => {
    const names = async (q: string) => (await get(`/api/virtualization/virtual-machines/?name__isw=${tag}&${q}`)).body.results.map((v: any) => v.name);
    expect(await names(`cluster_id=${cluster.id}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`cluster_group=${group.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`cluster_group_id=${group.id}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`cluster_type=${ctype.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`site=${site.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`site_id=${other.id}`)).to.deep.equal([]);
    expect(await names(`region=${region.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`location=${hall.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`role=${role.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`platform=${platform.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names(`tenant=${tenant.slug}`)).to.deep.equal([`${tag}-web1`]);
    expect(await names("status=active&has_primary_ip=true")).to.deep.equal([`${tag}-web1`]);
    expect(await names("status=offline")).to.deep.equal([]);
    expect(await names("vcpus=2&memory__gte=4096")).to.deep.equal([`${tag}-web1`]);
    expect(await names("q=WEB1")).to.deep.equal([`${tag}-web1`]);
    expect(await names("local_context_data=false")).to.deep.equal([`${tag}-web1`]);
  });

  it("config contexts by cluster group and cluster, for machines and devices; exclude=config_context", async () => {
    const ctx = async (body: Record<string, unknown>) => made("/api/extras/config-contexts/", body);
    const a = await ctx({ name: `${tag}-grp`, weight: 100, cluster_groups: [group.id], data: { ntp: "grp", dns: ["1.1.1.1"] } });
    expect(a.cluster_groups.map((g: any) => g.id)).to.deep.equal([group.id]);
    expect(Object.keys(a.cluster_groups[0]).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
    await ctx({ name: `${tag}-clu`, weight: 200, clusters: [{ name: cluster.name }], data: { ntp: "clu", clustered: true } });
    await ctx({ name: `${tag}-reg`, weight: 300, regions: [region.id], roles: [role.id], data: { syslog: "reg" } });
    await ctx({ name: `${tag}-loc`, weight: 400, locations: [hall.id], data: { loc: "hall" } });
    // Machines have no device type: a context for device types never applies to them.
    await ctx({ name: `${tag}-dt`, weight: 500, device_types: [deviceType.id], data: { ntp: "device-type" } });
    const elsewhere = await made("/api/virtualization/clusters/", { name: `${tag}-c3`, type: ctype.id });
    await ctx({ name: `${tag}-far`, weight: 600, clusters: [elsewhere.id], data: { ntp: "far" } });

    const contexts = async (q: string) => (await get(`/api/extras/config-contexts/?name__isw=${tag}&${q}`)).body.results.map((c: any) => c.name);
    expect(await contexts(`cluster_group=${group.slug}`)).to.deep.equal([`${tag}-grp`]);
    expect(await contexts(`cluster_group_id=${group.id}`)).to.deep.equal([`${tag}-grp`]);
    expect(await contexts(`cluster_id=${cluster.id}`)).to.deep.equal([`${tag}-clu`]);

    const web = (await get(`/api/virtualization/virtual-machines/?name=${tag}-web1`)).body.results[0];
    const local = await patch(`/api/virtualization/virtual-machines/${web.id}/`, { local_context_data: { dns: ["9.9.9.9"] } });
    expect(local.status, local.text).to.equal(200);
    expect(local.body.config_context).to.deep.equal({ ntp: "clu", clustered: true, dns: ["9.9.9.9"], syslog: "reg", loc: "hall" });
    expect((await get(`/api/virtualization/virtual-machines/${web.id}/?exclude=config_context`)).body).to.not.have.property("config_context");
    const listed = (await get(`/api/virtualization/virtual-machines/?id=${web.id}&exclude=config_context`)).body.results[0];
    expect(listed).to.not.have.property("config_context");
    expect(listed.local_context_data).to.deep.equal({ dns: ["9.9.9.9"] });
    // One read for the list, contexts and all.
    const counted = await statements(`/api/virtualization/virtual-machines/?cluster_id=${cluster.id}`);
    expect(counted.sql, counted.sql.join("\n")).to.have.length(1);

    // A device hosting the cluster matches by it and its group too.
    const device = await made("/api/dcim/devices/", {
      name: `${tag}-hv1`, device_type: deviceType.id, device_role: deviceRole.id, site: site.id, location: closet.id, status: "active", cluster: cluster.id,
    });
    expect(Object.keys(device.cluster).sort()).to.deep.equal(["display", "id", "name", "url"]);
    expect(device.config_context).to.deep.equal({ ntp: "device-type", clustered: true, dns: ["1.1.1.1"], loc: "hall" });
    expect((await get(`/api/dcim/devices/?cluster_id=${cluster.id}`)).body.results.map((d: any) => d.id)).to.deep.equal([device.id]);
    expect((await get(`/api/virtualization/clusters/${cluster.id}/`)).body.device_count).to.equal(1);
    expect((await get(`/api/virtualization/clusters/?devices=${device.name}`)).body.results.map((c: any) => c.id)).to.deep.equal([cluster.id]);
  });

  it("a device's cluster is at its site and location; a cluster keeps its hosts where it is", async () => {
    const device = (await get(`/api/dcim/devices/?name=${tag}-hv1`)).body.results[0];
    const host = (body: Record<string, unknown>) => post("/api/dcim/devices/", { device_type: deviceType.id, device_role: deviceRole.id, status: "active", cluster: cluster.id, ...body });
    const away = await host({ site: other.id });
    expect([away.status, away.body]).to.deep.equal([400, { cluster: [`The assigned cluster belongs to a different site (${tag}-site)`] }]);
    const outside = await host({ site: site.id, location: room.id });
    expect([outside.status, outside.body]).to.deep.equal([400, { cluster: [`The assigned cluster belongs to a location that does not include ${tag}-room.`] }]);
    // The cluster may not leave its hosts behind.
    const moveSite = await patch(`/api/virtualization/clusters/${cluster.id}/`, { site: other.id, location: null });
    expect([moveSite.status, moveSite.body]).to.deep.equal([400, { site: [`1 devices are assigned as hosts for this cluster but are not in site ${tag}-other`] }]);
    const moveLocation = await patch(`/api/virtualization/clusters/${cluster.id}/`, { location: room.id });
    expect([moveLocation.status, moveLocation.body]).to.deep.equal([400, {
      location: [`1 devices are assigned as hosts for this cluster but belong to a location other than "${tag}-room".`],
    }]);
    // Deleting a cluster leaves its hosts without one.
    const spare = await made("/api/virtualization/clusters/", { name: `${tag}-c4`, type: ctype.id });
    expect((await patch(`/api/dcim/devices/${device.id}/`, { cluster: spare.id })).status).to.equal(200);
    expect((await del(`/api/virtualization/clusters/${spare.id}/`)).status).to.equal(204);
    expect((await get(`/api/dcim/devices/${device.id}/`)).body.cluster).to.equal(null);
  });

  it("the demo's cluster: two machines with interfaces, contexts by site region and cluster", async () => {
    const machines = (await get("/api/virtualization/virtual-machines/?cluster_group=berlin-production")).body.results;
    expect(machines.map((m: any) => m.name)).to.deep.equal(["ber1-app1", "ber1-app2"]);
    expect(machines[1].config_context).to.deep.include({ dns_search: ["ber1.example.net"], ntp: ["ptbtime1.ptb.de"], app: { port: 8443 } });
    expect(machines[0].site.slug).to.equal("berlin-dc1");
    const interfaces = (await get("/api/virtualization/interfaces/?cluster=ber1-vsphere")).body.results.map((i: any) => `${i.virtual_machine.name}:${i.name}`);
    expect(interfaces).to.have.members(["ber1-app1:ens160", "ber1-app1:ens160.20", "ber1-app2:ens160"]);
  });
});
