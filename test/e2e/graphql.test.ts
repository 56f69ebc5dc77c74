// GraphQL at /api/graphql/ through the real server: Nautobot's names, nested relations four
// levels deep answered by one SQL statement, filter arguments of every kind validated as the
// REST filter sets validate them, refusals of bad and hostile queries (never a 5xx), and
// object permissions applied at every level.
import { expect } from "chai";
import { del, get, patch, post, type CallOptions } from "../support/http.js";
import { startTestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";
import { LIMITS } from "../../runtime/graphql/index.js";

const GQL = "/api/graphql/";

const gql = (query: string, variables?: Record<string, unknown>, opts?: CallOptions) => post(GQL, { query, ...(variables ? { variables } : {}) }, opts);

/**
 * The statements a GraphQL request makes (the token and permission reads left out, as
 * test/support/statements.ts). A transaction's BEGIN, SET LOCAL and COMMIT count too: where the
 * connection already bounds a statement's time (a read pool's, the embedded engine's), a query
 * is its one statement alone.
 */
async function counted(query: string, variables?: Record<string, unknown>): Promise<{ sql: string[]; status: number; body: any }> {
  const { db } = await startTestServer();
  const sql: string[] = [];
  const listen = (q: { sql: string }) => {
    if (!q.sql.includes('"users_token"') && !q.sql.includes('"users_objectpermission"')) sql.push(q.sql);
  };
  db.on("query", listen);
  try {
    const reply = await gql(query, variables);
    return { sql, status: reply.status, body: reply.body };
  } finally {
    db.removeListener("query", listen);
  }
}

describe("inventory e2e: GraphQL", () => {
  const tag = uniq("gql").toLowerCase();
  const site = { id: "", slug: `${tag}-site` };
  const devices: Array<{ id: string; name: string }> = [];

  before(async () => {
    const s = await post("/api/dcim/sites/", { name: site.slug, slug: site.slug, status: "active" });
    expect(s.status, JSON.stringify(s.body)).to.equal(201);
    site.id = s.body.id;
    await post("/api/dcim/sites/", { name: `${tag}-other`, slug: `${tag}-other`, status: "planned" });
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-m`, slug: `${tag}-m` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-t`, slug: `${tag}-t` })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-role`, slug: `${tag}-role` })).body;
    const t = (await post("/api/extras/tags/", { name: tag, slug: tag, color: "00ff00" })).body;
    for (const name of ["b", "a"]) {
      const d = await post("/api/dcim/devices/", { name: `${tag}-${name}`, device_type: type.id, device_role: role.id, site: site.id, status: "active", tags: name === "a" ? [t.id] : [] });
      expect(d.status, JSON.stringify(d.body)).to.equal(201);
      devices.push({ id: d.body.id, name: d.body.name });
      for (const n of [1, 2]) {
        const i = await post("/api/dcim/interfaces/", { device: d.body.id, name: `eth${n}`, type: "1000base-t" });
        expect(i.status, JSON.stringify(i.body)).to.equal(201);
        const ip = await post("/api/ipam/ip-addresses/", {
          address: `10.77.${name === "a" ? 1 : 2}.${n}/24`, status: "active",
          assigned_object_type: "dcim.interface", assigned_object_id: i.body.id,
        });
        expect(ip.status, JSON.stringify(ip.body)).to.equal(201);
      }
    }
    // The custom-field definitions are read once per process, when the schema is first needed.
    expect((await gql("{ __typename }")).status).to.equal(200);
  });

  it("shows custom fields as cf_<name>, the schema following definitions made while it runs", async () => {
    const name = `gql_cf_${process.pid}`;
    const cf = await post("/api/extras/custom-fields/", { name, type: "integer", content_types: ["dcim.device"] });
    expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
    expect((await patch(`/api/dcim/devices/${devices[1].id}/`, { custom_fields: { [name]: 42 } })).status).to.equal(200);
    const got = await gql(`{ devices(name__isw: "${tag}") { name ${name.replace(/^/, "cf_")} } }`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data.devices).to.deep.equal([{ name: `${tag}-a`, [`cf_${name}`]: 42 }, { name: `${tag}-b`, [`cf_${name}`]: null }]);
    expect((await gql(`{ sites { cf_${name} } }`)).status).to.equal(400);
  });

  it("shows relationships as rel_<slug>: one peer or a list, from either end, symmetric ones both ways; filters by them as cr_<slug>__<side>", async () => {
    const slug = `gql_rel_${process.pid}`;
    const r = await post("/api/extras/relationships/", { name: slug, slug, type: "one-to-many", source_type: "dcim.site", destination_type: "dcim.device" });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const peerSlug = `gql_peer_${process.pid}`;
    const peers = await post("/api/extras/relationships/", { name: peerSlug, slug: peerSlug, type: "symmetric-many-to-many", source_type: "dcim.device", destination_type: "dcim.device" });
    expect(peers.status, JSON.stringify(peers.body)).to.equal(201);
    for (const d of devices) {
      const a = await post("/api/extras/relationship-associations/", { relationship: r.body.id, source_type: "dcim.site", source_id: site.id, destination_type: "dcim.device", destination_id: d.id });
      expect(a.status, JSON.stringify(a.body)).to.equal(201);
    }
    const p = await post("/api/extras/relationship-associations/", { relationship: peers.body.id, source_type: "dcim.device", source_id: devices[0].id, destination_type: "dcim.device", destination_id: devices[1].id });
    expect(p.status, JSON.stringify(p.body)).to.equal(201);
    const filtered = await gql(`{ devices(cr_${slug}__source: ["${site.id}"], name__isw: "${tag}") { name } by_peer: devices(cr_${peerSlug}__peer: ["${devices[0].id}"]) { name } sites(cr_${slug}__destination: ["${devices[1].id}"]) { slug } }`);
    expect(filtered.status, JSON.stringify(filtered.body)).to.equal(200);
    expect(filtered.body.data).to.deep.equal({ devices: [{ name: `${tag}-a` }, { name: `${tag}-b` }], by_peer: [{ name: `${tag}-a` }], sites: [{ slug: site.slug }] });
    const got = await gql(`{ sites(slug: "${site.slug}") { rel_${slug} { name } } devices(name__isw: "${tag}") { name rel_${slug} { slug } rel_${peerSlug} { name } } }`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data).to.deep.equal({
      sites: [{ [`rel_${slug}`]: [{ name: `${tag}-a` }, { name: `${tag}-b` }] }],
      devices: [
        { name: `${tag}-a`, [`rel_${slug}`]: { slug: site.slug }, [`rel_${peerSlug}`]: [{ name: `${tag}-b` }] },
        { name: `${tag}-b`, [`rel_${slug}`]: { slug: site.slug }, [`rel_${peerSlug}`]: [{ name: `${tag}-a` }] },
      ],
    });
  });

  it("shows computed fields as cpf_<slug>, rendered from the object as REST shows it, in one statement", async () => {
    const slug = `gql_cpf_${process.pid}`;
    const made = await post("/api/extras/computed-fields/", {
      content_type: "dcim.device", slug, label: slug, template: "{{ obj.name }}@{{ obj.site.slug }}/{{ obj.status.value }}", fallback_value: "none",
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const broken = `gql_cpf_bad_${process.pid}`;
    expect((await post("/api/extras/computed-fields/", { content_type: "dcim.device", slug: broken, label: broken, template: "{{ obj.name | nosuchfilter }}", fallback_value: "fell back" })).status).to.equal(201);
    const query = `{ sites(slug: "${site.slug}") { devices { name cpf_${slug} cpf_${broken} } } device(id: "${devices[0].id}") { cpf_${slug} } }`;
    // The first request after new definitions reads them to extend the schema; the next ones are the query alone.
    expect((await gql(query)).status).to.equal(200);
    const got = await counted(query);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data).to.deep.equal({
      sites: [{ devices: [`${tag}-a`, `${tag}-b`].map((name) => ({ name, [`cpf_${slug}`]: `${name}@${site.slug}/active`, [`cpf_${broken}`]: "fell back" })) }],
      device: { [`cpf_${slug}`]: `${tag}-b@${site.slug}/active` },
    });
    expect(got.sql).to.have.length(1);
    const rest = await get(`/api/dcim/devices/${devices[0].id}/?include=computed_fields`);
    expect(rest.body.computed_fields[slug]).to.equal(got.body.data.device[`cpf_${slug}`]);
    expect((await gql(`{ sites { cpf_${slug} } }`)).status).to.equal(400);
  });

  it("takes custom-field filters cf_<name> and their lookups on lists and reverse lists, validated as REST", async () => {
    const name = `gql_cff_${process.pid}`;
    const cf = await post("/api/extras/custom-fields/", { name, type: "integer", content_types: ["dcim.device"] });
    expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
    const text = `gql_cft_${process.pid}`;
    expect((await post("/api/extras/custom-fields/", { name: text, type: "text", content_types: ["dcim.device"] })).status).to.equal(201);
    expect((await patch(`/api/dcim/devices/${devices[1].id}/`, { custom_fields: { [name]: 7, [text]: "Blue Leaf" } })).status).to.equal(200);
    expect((await patch(`/api/dcim/devices/${devices[0].id}/`, { custom_fields: { [name]: 12 } })).status).to.equal(200);
    const names = async (args: string) => {
      const got = await gql(`{ devices(name__isw: "${tag}", ${args}) { name } sites(slug: "${site.slug}") { devices(${args}) { name } } }`);
      expect(got.status, JSON.stringify(got.body)).to.equal(200);
      expect(got.body.errors, JSON.stringify(got.body.errors)).to.equal(undefined);
      expect(got.body.data.sites[0].devices).to.deep.equal(got.body.data.devices);
      return got.body.data.devices.map((d: { name: string }) => d.name);
    };
    expect(await names(`cf_${name}: "7"`)).to.deep.equal([`${tag}-a`]);
    expect(await names(`cf_${name}__gte: [10]`)).to.deep.equal([`${tag}-b`]);
    expect(await names(`cf_${name}__n: [7]`)).to.deep.equal([`${tag}-b`]);
    expect(await names(`cf_${text}: "blue"`)).to.deep.equal([`${tag}-a`]);
    expect(await names(`cf_${text}__ie: ["blue leaf"]`)).to.deep.equal([`${tag}-a`]);
    const rest = await get(`/api/dcim/devices/?cf_${name}=x`);
    expect(rest.status).to.equal(400);
    const bad = await gql(`{ devices(cf_${name}: "x") { name } }`);
    expect(bad.body.data).to.deep.equal({ devices: null });
    expect(bad.body.errors[0].message).to.equal(`{'cf_${name}': ['${rest.body[`cf_${name}`][0]}']}`);
    const args = await gql(`{ __type(name: "Query") { fields { name args { name type { name kind ofType { name } } } } } }`);
    const list = args.body.data.__type.fields.find((f: { name: string }) => f.name === "devices").args;
    expect(list.find((a: { name: string }) => a.name === `cf_${name}`).type).to.deep.equal({ name: "String", kind: "SCALAR", ofType: null });
    expect(list.find((a: { name: string }) => a.name === `cf_${name}__lt`).type).to.deep.equal({ name: null, kind: "LIST", ofType: { name: "Int" } });
    expect(list.some((a: { name: string }) => a.name === `cf_${name}`)).to.equal(true);
    expect(args.body.data.__type.fields.find((f: { name: string }) => f.name === "sites").args.some((a: { name: string }) => a.name.startsWith(`cf_${name}`))).to.equal(false);
  });

  it("names reverse relations as Nautobot's related names: child, member and bridged interfaces, child items, components, many-to-many and one-to-one ones", async () => {
    const device = devices[0].id;
    const make = async (body: Record<string, unknown>) => {
      const r = await post("/api/dcim/interfaces/", { device, ...body });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return r.body.id as string;
    };
    const lag = await make({ name: "bond0", type: "lag" });
    const bridge = await make({ name: "br0", type: "bridge" });
    const parent = await make({ name: "eth9", type: "1000base-t", lag, bridge });
    await make({ name: "eth9.10", type: "virtual", parent_interface: parent });
    const vlan = await post("/api/ipam/vlans/", { vid: 77, name: `${tag}-vlan`, status: "active" });
    expect(vlan.status, JSON.stringify(vlan.body)).to.equal(201);
    await make({ name: "eth8", type: "1000base-t", mode: "tagged", tagged_vlans: [vlan.body.id] });
    const ip = (await get(`/api/ipam/ip-addresses/?device_id=${device}&address=10.77.2.1/24`)).body.results[0];
    expect((await patch(`/api/dcim/devices/${device}/`, { primary_ip4: ip.id })).status).to.equal(200);
    const item = await post("/api/dcim/inventory-items/", { device, name: `${tag}-chassis` });
    expect(item.status, JSON.stringify(item.body)).to.equal(201);
    expect((await post("/api/dcim/inventory-items/", { device, name: `${tag}-card`, parent: item.body.id })).status).to.equal(201);
    const got = await counted(`{
      lag: interface(id: "${lag}") { member_interfaces { name } }
      bridge: interface(id: "${bridge}") { bridged_interfaces { name } }
      parent: interface(id: "${parent}") { child_interfaces { name } }
      device(id: "${device}") { inventoryitems(name: "${tag}-chassis") { child_items { name } } consoleports { name } parent_bay { name } }
      vlan(id: "${vlan.body.id}") { interfaces_as_tagged { name } }
      ip_address(id: "${ip.id}") { primary_ip4_for { name } primary_ip6_for { name } }
    }`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data).to.deep.equal({
      lag: { member_interfaces: [{ name: "eth9" }] },
      bridge: { bridged_interfaces: [{ name: "eth9" }] },
      parent: { child_interfaces: [{ name: "eth9.10" }] },
      device: { inventoryitems: [{ child_items: [{ name: `${tag}-card` }] }], consoleports: [], parent_bay: null },
      vlan: { interfaces_as_tagged: [{ name: "eth8" }] },
      ip_address: { primary_ip4_for: { name: devices[0].name }, primary_ip6_for: null },
    });
    expect(got.sql).to.have.length(1);
    const fields = async (type: string) => (await gql(`{ __type(name: "${type}") { fields { name } } }`)).body.data.__type.fields.map((f: { name: string }) => f.name);
    expect(await fields("DeviceTypeType")).to.include.members(["instances", "interfacetemplates", "consoleporttemplates"]);
    expect(await fields("CableType")).to.not.include.members(["interfaces"]);
    expect(await fields("VirtualMachineType")).to.include.members(["interfaces"]);
    expect((await patch(`/api/dcim/devices/${device}/`, { primary_ip4: null })).status).to.equal(200);
    for (const name of ["eth9.10", "eth9", "eth8", "bond0", "br0"]) {
      const found = await get(`/api/dcim/interfaces/?device_id=${device}&name=${name}`);
      expect((await del(`/api/dcim/interfaces/${found.body.results[0].id}/`)).status).to.equal(204);
    }
  });

  it("ends a statement past its time limit (PostgreSQL) with a GraphQL error, never a 5xx", async function () {
    const server = await startTestServer();
    if (server.engine !== "postgresql") this.skip();
    const before = LIMITS.statementTimeoutMs;
    LIMITS.statementTimeoutMs = 500;
    try {
      // A lock held by another transaction makes the statement wait until its time limit ends it.
      await server.db.transaction(async (trx) => {
        await trx.raw("LOCK TABLE dcim_site IN ACCESS EXCLUSIVE MODE");
        const got = await gql(`{ sites { slug } }`);
        expect(got.status, JSON.stringify(got.body)).to.equal(200);
        expect(got.body).to.deep.equal({ errors: [{ message: "Query took too long: at most 500 ms." }], data: null });
      });
    } finally {
      LIMITS.statementTimeoutMs = before;
    }
    expect((await gql(`{ sites(slug: "${site.slug}") { slug } }`)).body).to.deep.equal({ data: { sites: [{ slug: site.slug }] } });
  });

  it("shows the address parts Nautobot keeps as model fields: host, broadcast, prefix_length, network", async () => {
    const prefix = await post("/api/ipam/prefixes/", { prefix: "10.77.2.0/24", status: "active" });
    expect(prefix.status, JSON.stringify(prefix.body)).to.equal(201);
    const got = await gql(`{ ip_addresses(address: "10.77.2.1/24") { address host broadcast prefix_length } prefix(id: "${prefix.body.id}") { network broadcast prefix_length } }`);
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data).to.deep.equal({
      ip_addresses: [{ address: "10.77.2.1/24", host: "10.77.2.1", broadcast: "10.77.2.255", prefix_length: 24 }],
      prefix: { network: "10.77.2.0", broadcast: "10.77.2.255", prefix_length: 24 },
    });
    expect((await del(`/api/ipam/prefixes/${prefix.body.id}/`)).status).to.equal(204);
  });

  it("answers four levels (site → devices → interfaces → ip_addresses) with one statement", async () => {
    const got = await counted(`query ($slug: [String]) {
      sites(slug: $slug) { name devices { name interfaces { name type ip_addresses { address } } } }
    }`, { slug: [site.slug] });
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.errors).to.equal(undefined);
    expect(got.body.data.sites).to.deep.equal([{
      name: site.slug,
      devices: [`${tag}-a`, `${tag}-b`].map((name, k) => ({
        name,
        interfaces: [1, 2].map((n) => ({ name: `eth${n}`, type: "A_1000BASE_T", ip_addresses: [{ address: `10.77.${k + 1}.${n}/24` }] })),
      })),
    }]);
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("has Nautobot's single-object query, forward relations, status, tags, aliases and fragments", async () => {
    const got = await gql(`query ($id: ID!) {
      device(id: $id) { __typename id label: name site { slug } status { slug } tags { slug } ...F }
    }
    fragment F on DeviceType { device_role { slug } }`, { id: devices[1].id });
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data.device).to.deep.equal({
      __typename: "DeviceType", id: devices[1].id, label: `${tag}-a`, site: { slug: site.slug },
      status: { slug: "active" }, tags: [{ slug: tag }], device_role: { slug: `${tag}-role` },
    });
    expect((await gql(`{ device(id: "00000000-0000-4000-8000-000000000000") { id } }`)).body).to.deep.equal({ data: { device: null } });
  });

  it("takes the filter set's parameters: strings, lists, lookups, booleans, numbers, tags, limit and offset, at any level", async () => {
    const names = async (args: string) => {
      const got = await gql(`{ devices(${args}) { name } }`);
      expect(got.status, JSON.stringify(got.body)).to.equal(200);
      expect(got.body.errors, JSON.stringify(got.body.errors)).to.equal(undefined);
      return got.body.data.devices.map((d: { name: string }) => d.name);
    };
    expect(await names(`site: "${site.slug}"`)).to.deep.equal([`${tag}-a`, `${tag}-b`]);
    expect(await names(`name: ["${tag}-b", "nothing"]`)).to.deep.equal([`${tag}-b`]);
    expect(await names(`name__isw: "${tag}-", tag: "${tag}"`)).to.deep.equal([`${tag}-a`]);
    expect(await names(`site: "${site.slug}", limit: 1, offset: 1`)).to.deep.equal([`${tag}-b`]);
    expect(await names(`q: "${tag}-b"`)).to.deep.equal([`${tag}-b`]);
    expect(await names(`site: "${site.slug}", has_interfaces: true`)).to.deep.equal([`${tag}-a`, `${tag}-b`]);
    const nested = await gql(`{ devices(name: "${tag}-a") { interfaces(name: "eth2") { name } } ip_addresses(parent: "10.77.2.0/24", mask_length: 24) { address } }`);
    expect(nested.body.data).to.deep.equal({
      devices: [{ interfaces: [{ name: "eth2" }] }],
      ip_addresses: [{ address: "10.77.2.1/24" }, { address: "10.77.2.2/24" }],
    });
  });

  it("refuses bad filter values with the filter set's errors, failing only that root field", async () => {
    const got = await gql(`{ devices(site: "no-such-site") { name } sites(slug: "${site.slug}") { slug } }`);
    expect(got.status).to.equal(200);
    expect(got.body.data).to.deep.equal({ devices: null, sites: [{ slug: site.slug }] });
    expect(got.body.errors).to.have.length(1);
    expect(got.body.errors[0].message).to.equal("{'site': ['Select a valid choice. no-such-site is not one of the available choices.']}");
    expect(got.body.errors[0].path).to.deep.equal(["devices"]);
    const planned = await gql(`{ devices(created__gte: "yesterday") { name } }`);
    expect(planned.body.data).to.deep.equal({ devices: null });
    expect(planned.body.errors[0].message).to.match(/^\{'created__gte': \['Enter a valid date.'\]\}$/);
  });

  it("refuses malformed, invalid, subscribing, deep and wide queries with 400s", async () => {
    for (const [query, message] of [
      ["{ devices { name ", /Syntax Error/],
      ["{ devices { nope } }", /Cannot query field "nope" on type "DeviceType"/],
      ["mutation { x }", /Cannot query field "x" on type "Mutation"/],
      ["subscription { x }", /Schema is not configured for subscriptions|not a supported operation/],
      [`{ sites { devices { site { devices { site { devices { site { devices { site { devices { name } } } } } } } } } } }`, /too deep/],
      [`{ ${Array.from({ length: 1100 }, (_, i) => `a${i}: devices { name }`).join(" ")} }`, /too many fields/],
    ] as Array<[string, RegExp]>) {
      const got = await gql(query);
      expect(got.status, query.slice(0, 60)).to.equal(400);
      expect(got.body.errors[0].message).to.match(message);
    }
    const bomb = `query { ...F0 } ${Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { sites { slug } ...F${i + 1} ...F${i + 1} }`).join(" ")} fragment F30 on Query { sites { slug } }`;
    const got = await gql(bomb);
    expect(got.status).to.equal(400);
    expect((await post(GQL, {})).body).to.deep.equal({ errors: [{ message: "Must provide query string." }] });
    expect((await post(GQL, { query: "{ sites { slug } }", variables: "[" })).status).to.equal(400);
  });

  it("accepts the query as application/graphql and refuses GET for API clients", async () => {
    const got = await post(GQL, `{ sites(slug: "${site.slug}") { slug } }`, { raw: true, headers: { "Content-Type": "application/graphql" } });
    expect(got.body).to.deep.equal({ data: { sites: [{ slug: site.slug }] } });
    const { url, token } = await startTestServer();
    const res = await fetch(`${url}${GQL}`, { headers: { Authorization: `Token ${token}`, Accept: "application/json" } });
    expect(res.status).to.equal(405);
  });

  it("serves GraphiQL to a browser from local files, under the content-security policy", async () => {
    const { url } = await startTestServer();
    const page = await fetch(`${url}${GQL}`, { headers: { Accept: "text/html" } });
    expect(page.status).to.equal(200);
    const html = await page.text();
    const nonce = /<script nonce="([0-9a-f]+)">/.exec(html)?.[1];
    expect(page.headers.get("content-security-policy")).to.include(`'nonce-${nonce}'`);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).to.have.length(4);
    for (const asset of assets) {
      expect(asset.startsWith("/api/graphql/static/"), asset).to.equal(true);
      expect((await fetch(`${url}${asset}`)).status, asset).to.equal(200);
    }
  });

  it("shows each requester only what they may view, at every level; anonymous requesters see nothing", async () => {
    const server = await startTestServer();
    const limited = await server.user(uniq(`${tag}-u`), { grants: [
      { object_types: ["dcim.site"], actions: ["view"], constraints: { slug: site.slug } },
      { object_types: ["dcim.device"], actions: ["view"], constraints: { name: `${tag}-a` } },
    ] });
    const query = `{ sites(slug: ["${site.slug}", "${tag}-other"]) { slug devices { name interfaces { name } } } devices(name__isw: "${tag}") { name site { slug } } }`;
    const got = await gql(query, undefined, { token: limited.key });
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body.data).to.deep.equal({
      sites: [{ slug: site.slug, devices: [{ name: `${tag}-a`, interfaces: [] }] }],
      devices: [{ name: `${tag}-a`, site: { slug: site.slug } }],
    });
    const anonymous = await gql(query, undefined, { token: null });
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body.data).to.deep.equal({ sites: [], devices: [] });
  });

  it("saves queries with the variables their text defines, and runs them as the requester", async () => {
    const made = await post("/api/extras/graphql-queries/", {
      name: `${tag} Devices`, query: "query ($site: [String], $limit: Int = 1) { devices(site: $site, limit: $limit) { name } }", variables: { ignored: 1 },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({ name: `${tag} Devices`, slug: `${tag}-devices` });
    expect(made.body.variables).to.deep.equal({ site: "", limit: "1" });
    const listed = await get(`/api/extras/graphql-queries/?slug=${tag}-devices`);
    expect(listed.body.results.map((q: { id: string }) => q.id)).to.deep.equal([made.body.id]);
    const run = await post(`/api/extras/graphql-queries/${made.body.id}/run/`, { variables: { site: [site.slug], limit: 5 } });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    expect(run.body).to.deep.equal({ data: { devices: [{ name: `${tag}-a` }, { name: `${tag}-b` }] } });
    const bad = await post(`/api/extras/graphql-queries/${made.body.id}/run/`, { variables: { site: ["no-such-site"] } });
    expect(bad.body.errors[0].message).to.match(/^\{'site': \['Select a valid choice/);
    const broken = await post("/api/extras/graphql-queries/", { name: `${tag} broken`, query: "{ devices { name " });
    expect(broken.status).to.equal(400);
    expect(broken.body.query[0]).to.match(/Syntax Error/);
    const edited = await patch(`/api/extras/graphql-queries/${made.body.id}/`, { query: "{ sites { slug } }" });
    expect(edited.body.variables).to.deep.equal({});
    const server = await startTestServer();
    const viewer = await server.user(uniq(`${tag}-v`), { grants: [{ object_types: ["extras.graphqlquery"], actions: ["view"] }] });
    expect((await post(`/api/extras/graphql-queries/${made.body.id}/run/`, {}, { token: viewer.key })).status).to.equal(403);
  });

  it("is listed on the API root and answers introspection", async () => {
    const got = await gql(`{ __type(name: "IPAddressType") { fields { name } } }`);
    const fields = got.body.data.__type.fields.map((f: { name: string }) => f.name);
    expect(fields).to.include.members(["address", "vrf", "status", "tags", "nat_inside"]);
    const region = await gql(`{ __type(name: "RegionType") { fields { name } } }`);
    expect(region.body.data.__type.fields.map((f: { name: string }) => f.name)).to.include.members(["parent", "children", "sites"]);
    const root = await get("/api/");
    expect(root.body.graphql).to.match(/\/api\/graphql\/$/);
  });
});
