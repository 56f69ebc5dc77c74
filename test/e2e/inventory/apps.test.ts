// Apps as spec packages (apps/<name>/): the BGP models app served below /api/plugins/bgp/ by an
// instance whose PLUGINS enables it, beside the shared test server (which enables none) on the
// same database. Its models behave as core ones: nested and brief forms, statuses, filters,
// custom fields, the change log, GraphQL, its hooks' refusals; a disabled app serves nothing
// while its rows stay; a PLUGINS name no app has stops the server from starting.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { apis } from "../../../generated/server.js";
import { rows, uniq, UUID_RE } from "./support.js";

const BGP = "/api/plugins/bgp";
const ROUTES = ["address-families", "autonomous-systems", "peer-endpoints", "peer-group-templates", "peer-groups", "peering-roles", "peerings", "routing-instances"];

describe("inventory e2e: apps (PLUGINS=bgp)", () => {
  let server: TestServer;
  let enabled: Server;
  let url: string;
  const tag = uniq("bgp").toLowerCase();
  // A distinct ASN per run: the PostgreSQL database outlives a run only when a run fails midway.
  const asn = 4200000000 + Math.floor(Math.random() * 90000000);

  before(async () => {
    server = await startTestServer();
    const app = createApp(apis, server.db, { ...configFromEnv(), dataDir: "memory://", logRequests: false, publicUrl: undefined, plugins: ["bgp"] });
    enabled = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
    url = `http://127.0.0.1:${(enabled.address() as AddressInfo).port}`;
  });

  after(() => new Promise((resolve) => enabled.close(resolve)));

  const on = (path: string) => `${url}${path}`;

  it("/api/plugins/ lists the enabled apps as Nautobot does, and installed-plugins their configuration", async () => {
    const root = await get(on("/api/plugins/"));
    expect(root.status, root.text).to.equal(200);
    expect(root.body).to.deep.equal({ "installed-plugins": `${url}/api/plugins/installed-plugins/`, bgp: `${url}${BGP}/` });
    const installed = await get(on("/api/plugins/installed-plugins/"));
    expect(installed.status, installed.text).to.equal(200);
    expect(installed.body).to.deep.equal([{
      name: "BGP Models", package: "nautobot_bgp_models", author: "Network to Code, LLC", author_email: "opensource@networktocode.com",
      description: "Nautobot BGP Models Plugin.", verison: "0.7.1", version: "0.7.1",
    }]);
    const user = await server.user(uniq("bgp-user"), { grants: [] });
    expect((await get(on("/api/plugins/installed-plugins/"), { token: user.key })).status).to.equal(403);
    const app = await get(on(`${BGP}/`));
    expect(app.status, app.text).to.equal(200);
    expect(Object.keys(app.body)).to.deep.equal(ROUTES);
    expect(app.body["autonomous-systems"]).to.equal(`${url}${BGP}/autonomous-systems/`);
    const status = await get(on("/api/status/"));
    expect(status.body.plugins).to.deep.equal({ nautobot_bgp_models: "0.7.1" });
  });

  it("an autonomous system: created with a status, shown in its forms, refused when duplicated or given a status not its own", async () => {
    const made = await post(on(`${BGP}/autonomous-systems/`), { asn, status: "active", description: "transit" });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.id).to.match(UUID_RE);
    expect(made.body).to.deep.include({
      url: `${url}${BGP}/autonomous-systems/${made.body.id}/`, display: `AS ${asn}`, asn, description: "transit",
      status: { value: "active", label: "Active" }, provider: null, tags: [], custom_fields: {},
    });
    const brief = await get(on(`${BGP}/autonomous-systems/${made.body.id}/?brief=1`));
    expect(brief.body).to.deep.equal({ id: made.body.id, url: made.body.url, display: `AS ${asn}`, asn });
    const again = await post(on(`${BGP}/autonomous-systems/`), { asn, status: "active" });
    expect(again.status).to.equal(400);
    expect(again.body).to.have.keys("asn");
    const wrongStatus = await post(on(`${BGP}/autonomous-systems/`), { asn: asn + 1, status: "connected" });
    expect(wrongStatus.status).to.equal(400);
    expect(wrongStatus.body).to.have.keys("status");
    const tooBig = await post(on(`${BGP}/autonomous-systems/`), { asn: 4294967296, status: "active" });
    expect(tooBig.status).to.equal(400);
    expect(tooBig.body.asn).to.deep.equal(["Ensure this value is less than or equal to 4294967295."]);
    expect(await rows("nautobot_bgp_models_autonomoussystem", { asn: asn + 1 })).to.equal(0);
    const listed = await get(on(`${BGP}/autonomous-systems/?asn=${asn}`));
    expect(listed.body.count).to.equal(1);
    expect((await get(on(`${BGP}/autonomous-systems/?status=planned&asn=${asn}`))).body.count).to.equal(0);
    expect((await get(on(`${BGP}/autonomous-systems/?bogus=1`))).status).to.equal(400);
    const planned = await patch(on(`${BGP}/autonomous-systems/${made.body.id}/`), { status: "planned" });
    expect(planned.body.status).to.deep.equal({ value: "planned", label: "Planned" });
    const changes = await get(on(`/api/extras/object-changes/?changed_object_id=${made.body.id}`));
    expect(changes.body.results.map((c: any) => [c.action.value, c.changed_object_type])).to.have.deep.members([
      ["create", "nautobot_bgp_models.autonomoussystem"], ["update", "nautobot_bgp_models.autonomoussystem"],
    ]);
  });

  it("custom fields and statuses name the app's content types; GraphQL has its types", async () => {
    const key = `${tag.replace(/-/g, "_")}_cf`;
    const cf = await post(on("/api/extras/custom-fields/"), { name: key, type: "text", content_types: ["nautobot_bgp_models.autonomoussystem"] });
    expect(cf.status, cf.text).to.equal(201);
    const made = await post(on(`${BGP}/autonomous-systems/`), { asn: asn + 2, status: "available", custom_fields: { [key]: "x" } });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.custom_fields).to.deep.equal({ [key]: "x" });
    expect((await get(on(`${BGP}/autonomous-systems/?cf_${key}=x`))).body.count).to.equal(1);
    const active = (await get(on("/api/extras/statuses/?slug=active"))).body.results[0];
    expect(active.content_types).to.include.members(["nautobot_bgp_models.autonomoussystem", "nautobot_bgp_models.peering"]);
    const types = await get(on("/api/extras/content-types/?app_label=nautobot_bgp_models&limit=50"));
    expect(types.body.results.map((t: any) => t.model).sort()).to.deep.equal([
      "addressfamily", "autonomoussystem", "bgproutinginstance", "peerendpoint", "peergroup", "peergrouptemplate", "peering", "peeringrole",
    ]);
    const gql = await post(on("/api/graphql/"), { query: `{ autonomous_systems(id: "${made.body.id}") { asn status { slug } } }` });
    expect(gql.status, gql.text).to.equal(200);
    expect(gql.body).to.deep.equal({ data: { autonomous_systems: [{ asn: asn + 2, status: { slug: "available" } }] } });
    expect((await del(on(`/api/extras/custom-fields/${cf.body.id}/`))).status).to.equal(204);
  });

  it("routing instances, peerings and endpoints link to core objects; the app's hooks refuse what its clean() refuses", async () => {
    const site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-model` })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    const device = (await post("/api/dcim/devices/", { name: `${tag}-dev`, device_type: type.id, device_role: role.id, site: site.id, status: "active" })).body;
    const iface = (await post("/api/dcim/interfaces/", { device: device.id, name: "eth0", type: "1000base-t" })).body;
    const ip = (await post("/api/ipam/ip-addresses/", { address: "192.0.2.1/24", status: "active" })).body;
    const as = (await post(on(`${BGP}/autonomous-systems/`), { asn: asn + 3, status: "active" })).body;
    const instance = await post(on(`${BGP}/routing-instances/`), { device: device.id, autonomous_system: as.id, router_id: ip.id });
    expect(instance.status, instance.text).to.equal(201);
    expect(instance.body.device).to.include({ id: device.id, name: `${tag}-dev` });
    expect(instance.body.autonomous_system).to.deep.equal({ id: as.id, url: as.url, display: `AS ${asn + 3}`, asn: asn + 3 });
    expect(instance.body.display).to.equal(`${tag}-dev - AS ${asn + 3}`);
    const twice = await post(on(`${BGP}/routing-instances/`), { device: device.id, autonomous_system: as.id });
    expect(twice.status).to.equal(400);
    const peering = await post(on(`${BGP}/peerings/`), { status: "active" });
    expect(peering.status, peering.text).to.equal(201);
    const both = await post(on(`${BGP}/peer-endpoints/`), { peering: peering.body.id, routing_instance: instance.body.id, source_ip: ip.id, source_interface: iface.id });
    expect(both.status).to.equal(400);
    expect(both.body).to.deep.equal({ __all__: ["Can not set both IP and Update source options"] });
    const endpoint = await post(on(`${BGP}/peer-endpoints/`), { peering: peering.body.id, routing_instance: instance.body.id, source_ip: ip.id });
    expect(endpoint.status, endpoint.text).to.equal(201);
    expect(endpoint.body.peer).to.equal(null);
    expect((await get(on(`${BGP}/routing-instances/${instance.body.id}/`))).body.endpoints.map((e: any) => e.id)).to.deep.equal([endpoint.body.id]);
    // The second endpoint of a peering makes each the other's peer (the app's Peering.update_peers).
    const provider = (await post("/api/circuits/providers/", { name: `${tag}-isp` })).body;
    const remote = (await post(on(`${BGP}/autonomous-systems/`), { asn: asn + 4, status: "active", provider: provider.id })).body;
    const ip2 = (await post("/api/ipam/ip-addresses/", { address: "198.51.100.1/24", status: "active" })).body;
    const far = await post(on(`${BGP}/peer-endpoints/`), { peering: peering.body.id, autonomous_system: remote.id, source_ip: ip2.id });
    expect(far.status, far.text).to.equal(201);
    expect(far.body.peer).to.include({ id: endpoint.body.id });
    expect((await get(on(`${BGP}/peer-endpoints/${endpoint.body.id}/`))).body.peer).to.include({ id: far.body.id });
    const read = (await get(on(`${BGP}/peerings/${peering.body.id}/`))).body;
    expect(read.endpoints.map((e: any) => e.id).sort()).to.deep.equal([endpoint.body.id, far.body.id].sort());
    expect((await get(on(`${BGP}/peer-endpoints/?device=${tag}-dev`))).body.count).to.equal(1);
    const family = await post(on(`${BGP}/address-families/`), { routing_instance: instance.body.id, afi_safi: "ipv4_unicast" });
    expect(family.status, family.text).to.equal(201);
    expect(family.body.afi_safi).to.deep.equal({ value: "ipv4_unicast", label: "IPv4 Unicast" });
    const duplicate = await post(on(`${BGP}/address-families/`), { routing_instance: instance.body.id, afi_safi: "ipv4_unicast" });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.body).to.deep.equal({ __all__: ["Duplicate Address Family"] });
    // The core object an app's row leans on is protected, as the app's on_delete=PROTECT says.
    expect((await del(`/api/ipam/ip-addresses/${ip.id}/`)).status).to.equal(409);
    expect((await del(on(`${BGP}/peerings/${peering.body.id}/`))).status).to.equal(204);
    expect(await rows("nautobot_bgp_models_peerendpoint", { peering_id: peering.body.id })).to.equal(0);
  });

  it("every model of the app: the app's filters, nested and brief forms, custom fields, relationships, change log and GraphQL", async () => {
    const key = `${tag.replace(/-/g, "_")}_every`;
    const site = (await post("/api/dcim/sites/", { name: `${tag}-site2`, status: "active" })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker2` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-model2` })).body;
    const drole = (await post("/api/dcim/device-roles/", { name: `${tag}-role2` })).body;
    const device = (await post("/api/dcim/devices/", { name: `${tag}-R1`, device_type: type.id, device_role: drole.id, site: site.id, status: "active" })).body;
    const ip = (await post("/api/ipam/ip-addresses/", { address: "203.0.113.7/24", status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: `${tag}-vrf` })).body;
    const number = asn + 20;
    const made = async (route: string, body: Record<string, unknown>) => {
      const res = await post(on(`${BGP}/${route}/`), body);
      expect(res.status, `${route} ${res.text}`).to.equal(201);
      return res.body as Record<string, any>;
    };
    const as = await made("autonomous-systems", { asn: number, status: "active", description: `${tag} transit` });
    const other = await made("autonomous-systems", { asn: number + 1, status: "planned" });
    const role = await made("peering-roles", { name: `${tag} Role` });
    const instance = await made("routing-instances", { device: device.id, autonomous_system: as.id, router_id: ip.id });
    const template = await made("peer-group-templates", { name: `${tag}-tpl`, role: role.id, autonomous_system: as.id });
    const group = await made("peer-groups", { name: `${tag}-pg`, routing_instance: instance.id, role: role.id, template: template.id, autonomous_system: as.id });
    const peering = await made("peerings", { status: "active" });
    const endpoint = await made("peer-endpoints", { peering: peering.id, routing_instance: instance.id, peer_group: group.id, source_ip: ip.id });
    const family = await made("address-families", { routing_instance: instance.id, afi_safi: "ipv4_unicast", vrf: vrf.id });
    // Per model: its object, its GraphQL list and type, its nested form's fields (the app's
    // nested_serializers.py), where another object shows it nested, and the app's filters
    // (filters.py) that select it, each beside one that selects nothing.
    const models: Array<{ route: string; model: string; object: Record<string, any>; list: string; nested: string[]; shownIn?: () => Promise<unknown>;
      filters: string[]; misses: string[] }> = [
      { route: "autonomous-systems", model: "autonomoussystem", object: as, list: "autonomous_systems", nested: ["asn"],
        shownIn: async () => (await get(on(`${BGP}/routing-instances/${instance.id}/`))).body.autonomous_system,
        filters: [`q=${String(number).slice(4)}`, `q=${tag}%20TRANSIT`, `asn=${number}&status=active`, `id=${as.id}`], misses: [`q=${tag}-nothing`, `asn=${number}&status=planned`] },
      { route: "peering-roles", model: "peeringrole", object: role, list: "peering_roles", nested: ["name", "slug", "color"],
        filters: [`q=${tag}%20role`, `slug=${role.slug}`, `name=${tag}%20Role&color=9e9e9e`], misses: [`q=${tag}-nothing`, `slug=${role.slug}&color=ffffff`] },
      { route: "routing-instances", model: "bgproutinginstance", object: instance, list: "routing_instances", nested: [],
        shownIn: async () => (await get(on(`${BGP}/peer-groups/${group.id}/`))).body.routing_instance,
        filters: [`q=${tag}-r`, `device=${tag}-R1`, `device_id=${device.id}`, `autonomous_system=${number}&device=${tag}-R1`],
        misses: [`q=${tag}-nothing`, `autonomous_system=${other.asn}&device=${tag}-R1`] },
      { route: "peer-group-templates", model: "peergrouptemplate", object: template, list: "peer_group_templates", nested: ["name"],
        shownIn: async () => (await get(on(`${BGP}/peer-groups/${group.id}/`))).body.template,
        filters: [`q=${tag}-tpl`, `autonomous_system=${number}&role=${role.slug}`, `name=${tag}-tpl&enabled=true`], misses: [`q=${tag}-nothing`, `name=${tag}-tpl&enabled=false`] },
      { route: "peer-groups", model: "peergroup", object: group, list: "peer_groups", nested: ["name", "role", "enabled"],
        shownIn: async () => (await get(on(`${BGP}/peer-endpoints/${endpoint.id}/`))).body.peer_group,
        filters: [`q=${tag}-pg`, `autonomous_system=${number}&routing_instance=${instance.id}`, `role=${role.slug}&name=${tag}-pg`, `enabled=true&name=${tag}-pg`],
        misses: [`q=${tag}-nothing`, `enabled=false&name=${tag}-pg`] },
      { route: "peer-endpoints", model: "peerendpoint", object: endpoint, list: "peer_endpoints", nested: [],
        shownIn: async () => (await get(on(`${BGP}/routing-instances/${instance.id}/`))).body.endpoints[0],
        filters: [`q=${tag.toUpperCase()}-r1`, `device=${tag}-R1`, `peer_group=${group.id}&enabled=true`], misses: [`q=${tag}-r`, `peer_group=${group.id}&enabled=false`] },
      { route: "peerings", model: "peering", object: peering, list: "peerings", nested: ["status"],
        shownIn: async () => (await get(on(`${BGP}/peer-endpoints/${endpoint.id}/`))).body.peering,
        filters: [`device=${tag}-R1`, `device=${device.id}&status=active`], misses: [`device=${device.id}&status=planned`] },
      { route: "address-families", model: "addressfamily", object: family, list: "address_families", nested: ["afi_safi"],
        filters: [`routing_instance=${instance.id}&afi_safi=ipv4_unicast`, `vrf=${vrf.id}`], misses: [`routing_instance=${instance.id}&afi_safi=ipv6_unicast`] },
    ];
    const cf = await post(on("/api/extras/custom-fields/"), { name: key, type: "text", content_types: models.map((m) => `nautobot_bgp_models.${m.model}`) });
    expect(cf.status, cf.text).to.equal(201);
    const relationships: string[] = [];
    try {
      for (const m of models) {
        const at = on(`${BGP}/${m.route}/${m.object.id}/`);
        const brief = await get(`${at}?brief=1`);
        expect(brief.status, m.route).to.equal(200);
        expect(Object.keys(brief.body), m.route).to.have.members(["id", "url", "display", ...m.nested]);
        if (m.shownIn) expect(await m.shownIn(), m.route).to.deep.equal(brief.body);
        for (const filter of m.filters) {
          const listed = await get(on(`${BGP}/${m.route}/?${filter}`));
          expect([listed.status, listed.body.results?.map((o: any) => o.id)], `${m.route}?${filter}`).to.deep.equal([200, [m.object.id]]);
        }
        for (const filter of m.misses) expect((await get(on(`${BGP}/${m.route}/?${filter}`))).body.count, `${m.route}?${filter}`).to.equal(0);
        // A custom field's value written and filtered by.
        const value = `v-${m.route}`;
        const changed = await patch(at, { custom_fields: { [key]: value } });
        expect([changed.status, changed.body.custom_fields?.[key]], m.route).to.deep.equal([200, value]);
        expect((await get(on(`${BGP}/${m.route}/?cf_${key}=${value}`))).body.results.map((o: any) => o.id), m.route).to.deep.equal([m.object.id]);
        // A relationship from a core model to this one, written from the app's side and read from both.
        const rel = await post(on("/api/extras/relationships/"), { name: `${tag} dev ${m.model}`, source_type: "dcim.device", destination_type: `nautobot_bgp_models.${m.model}` });
        expect(rel.status, rel.text).to.equal(201);
        relationships.push(rel.body.id);
        const linked = await patch(at, { relationships: { [rel.body.slug]: { source: { objects: [device.id] } } } });
        expect(linked.status, `${m.route} ${linked.text}`).to.equal(200);
        const shown = (await get(`${at}?include=relationships`)).body.relationships[rel.body.slug];
        expect(shown.source.objects.map((o: any) => o.id), m.route).to.deep.equal([device.id]);
        const other = (await get(`/api/dcim/devices/${device.id}/?include=relationships`)).body.relationships[rel.body.slug];
        expect(other.destination.objects.map((o: any) => o.id), m.route).to.deep.equal([m.object.id]);
        // The change log: the create and the update above, under the app's content type.
        const changes = await get(on(`/api/extras/object-changes/?changed_object_id=${m.object.id}`));
        expect(changes.body.results.map((c: any) => c.changed_object_type), m.route).to.include(`nautobot_bgp_models.${m.model}`);
        expect(changes.body.results.map((c: any) => c.action.value), m.route).to.include.members(["create", "update"]);
        // GraphQL: the list by id, with the custom field.
        const gql = await post(on("/api/graphql/"), { query: `{ ${m.list}(id: "${m.object.id}") { id cf_${key} } }` });
        expect([gql.status, gql.body], m.route).to.deep.equal([200, { data: { [m.list]: [{ id: m.object.id, [`cf_${key}`]: value }] } }]);
      }
      // GraphQL mutations reach an enabled app's models too.
      const mutated = await post(on("/api/graphql/"), { query: `mutation { update_autonomous_system(id: "${as.id}", input: { description: "by graphql" }) { asn description } }` });
      expect([mutated.status, mutated.body]).to.deep.equal([200, { data: { update_autonomous_system: { asn: number, description: "by graphql" } } }]);
    } finally {
      for (const id of relationships) expect((await del(on(`/api/extras/relationships/${id}/`))).status).to.equal(204);
      expect((await del(on(`/api/extras/custom-fields/${cf.body.id}/`))).status).to.equal(204);
    }
  });

  it("a disabled app serves nothing, its rows stay; a PLUGINS name no app has stops the start", async () => {
    expect((await get("/api/plugins/")).body).to.deep.equal({ "installed-plugins": `${server.url}/api/plugins/installed-plugins/` });
    expect((await get("/api/plugins/installed-plugins/")).body).to.deep.equal([]);
    for (const route of ["/api/plugins/bgp/", "/api/plugins/bgp/autonomous-systems/"]) {
      const res = await get(route);
      expect(res.status, route).to.equal(404);
      expect(res.body).to.deep.equal({ detail: "Not found." });
    }
    expect((await post("/api/plugins/bgp/autonomous-systems/", { asn: asn + 9, status: "active" })).status).to.equal(404);
    expect(await rows("nautobot_bgp_models_autonomoussystem", { asn })).to.equal(1);
    expect((await get("/api/status/")).body.plugins).to.deep.equal({});
    const gql = await post("/api/graphql/", { query: "{ autonomous_systems { asn } }" });
    expect(gql.status).to.equal(400);
    expect(gql.body.errors[0].message).to.equal('Cannot query field "autonomous_systems" on type "Query".');
    const reverse = await post("/api/graphql/", { query: "{ devices(limit: 1) { name bgp_routing_instances { id } } }" });
    expect(reverse.body.errors[0].message).to.equal('Cannot query field "bgp_routing_instances" on type "DeviceType".');
    expect((await post("/api/graphql/", { query: "{ devices(limit: 1) { name } }" })).status).to.equal(200);
    const mutation = await post("/api/graphql/", { query: `mutation { create_autonomous_system(input: { asn: ${asn + 9}, status: "active" }) { id } }` });
    expect([mutation.status, mutation.body.errors[0].message]).to.deep.equal([400, 'Cannot query field "create_autonomous_system" on type "Mutation".']);
    const doc = (await get("/api/swagger.json")).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith(`${BGP}/`))).to.deep.equal([]);
    const served = (await get(on("/api/swagger.json"))).body;
    expect(Object.keys(served.paths)).to.include(`${BGP}/autonomous-systems/`);
    expect(() => createApp(apis, server.db, { ...configFromEnv(), plugins: ["bgp", "nautobot_golden_config"] }))
      .to.throw('PLUGINS names "nautobot_golden_config", which no app is (apps: bgp)');
  });
});
