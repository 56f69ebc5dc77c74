// Addresses and prefixes in Nautobot's order: its `host`/`network` columns are varbinary (4
// bytes for IPv4, 16 for IPv6) compared bytewise, then `prefix_length`; prefixes outside any VRF
// first. So `::1` < `0.0.0.1` < `10.0.0.1` < `2001::1:1` < `172.16.180.1`, and `32.1.0.0` (the
// same first four bytes as `2001::1:1`, but shorter) before `2001::1:1`. In lists, in a service's
// nested addresses, and read off the ordering index rather than sorting the table.
import { expect } from "chai";
import { get, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { uniq } from "./support.js";

describe("inventory e2e: network ordering", () => {
  const tag = uniq("nord").toLowerCase();
  let label: any, vrf: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  const listed = async (path: string, key: string) => (await get(`${path}?tag=${label.slug}&limit=100`)).body.results.map((x: any) => x[key]);

  // Nautobot's order, written out by hand.
  const ADDRESSES = [
    "::1/128", "0.0.0.1/32", "10.0.0.1/8", "10.0.0.1/24", "10.0.0.2/8", "32.0.0.1/32", "32.1.0.0/32",
    "2001::1:1/64", "2001:db8::1/64", "172.16.180.1/24", "192.168.0.1/16", "255.255.255.255/32",
  ];

  before(async () => {
    label = await made("/api/extras/tags/", { name: `${tag}-tag` });
    // Its space is not unique: the same host with two lengths may be listed.
    vrf = await made("/api/ipam/vrfs/", { name: `${tag}-vrf`, enforce_unique: false });
  });

  it("lists IP addresses by host bytes, then prefix length, IPv4 and IPv6 interleaved as Nautobot does", async () => {
    const shuffled = [...ADDRESSES].reverse().sort((a, b) => (a.length % 3) - (b.length % 3));
    for (const address of shuffled) await made("/api/ipam/ip-addresses/", { address, status: "active", vrf: vrf.id, tags: [label.id] });
    expect(await listed("/api/ipam/ip-addresses/", "address")).to.deep.equal(ADDRESSES);
    const page = (await get(`/api/ipam/ip-addresses/?tag=${label.slug}&limit=3&offset=6`)).body.results.map((x: any) => x.address);
    expect(page).to.deep.equal(ADDRESSES.slice(6, 9));
  });

  it("a service's nested addresses come in the same order", async () => {
    const picked = ["172.16.180.1/24", "2001::1:1/64", "::1/128", "32.1.0.0/32"];
    const ids = new Map<string, string>();
    for (const x of (await get(`/api/ipam/ip-addresses/?tag=${label.slug}&limit=100`)).body.results) ids.set(x.address, x.id);
    const site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-box` });
    const role = await made("/api/dcim/device-roles/", { name: `${tag}-role` });
    const device = await made("/api/dcim/devices/", { name: `${tag}-dev`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    const service = await made("/api/ipam/services/", {
      device: device.id, name: `${tag}-svc`, protocol: "tcp", ports: [22], ipaddresses: picked.map((a) => ids.get(a)),
    });
    const order = ["::1/128", "32.1.0.0/32", "2001::1:1/64", "172.16.180.1/24"];
    expect(service.ipaddresses.map((a: any) => a.address)).to.deep.equal(order);
    expect((await get(`/api/ipam/services/${service.id}/`)).body.ipaddresses.map((a: any) => a.address)).to.deep.equal(order);
  });

  it("lists prefixes outside any VRF first, then by network bytes and length; aggregates by network bytes", async () => {
    const global = ["::/8", "10.0.0.0/8", "10.0.0.0/16", "10.1.0.0/16", "2001:db8::/32", "2001:db8::/48", "172.16.0.0/12"];
    const inVrf = ["1.0.0.0/8", "fd00::/8"];
    for (const prefix of [...global].reverse()) await made("/api/ipam/prefixes/", { prefix, status: "active", tags: [label.id] });
    for (const prefix of [...inVrf].reverse()) await made("/api/ipam/prefixes/", { prefix, status: "active", vrf: vrf.id, tags: [label.id] });
    expect(await listed("/api/ipam/prefixes/", "prefix")).to.deep.equal([...global, ...inVrf]);
    const rir = await made("/api/ipam/rirs/", { name: `${tag}-rir` });
    const aggregates = ["6.0.0.0/8", "2c0f:fff0::/32", "198.18.0.0/15"];
    for (const prefix of [...aggregates].reverse()) await made("/api/ipam/aggregates/", { prefix, rir: rir.id, tags: [label.id] });
    expect(await listed("/api/ipam/aggregates/", "prefix")).to.deep.equal(aggregates);
  });

  it("a page of many addresses is read off the ordering index, not by sorting the table", async () => {
    const { db } = await startTestServer();
    // Many rows, made directly: only the plan matters here.
    await db.raw(`INSERT INTO ipam_ipaddress (address, status, description)
      SELECT ('198.51.' || (i / 256) || '.' || (i % 256) || '/24')::inet, 'active', ? FROM generate_series(0, 19999) AS i`, [tag]);
    try {
      await db.raw("ANALYZE ipam_ipaddress");
      const seen: Array<{ sql: string; bindings: unknown[] }> = [];
      const listen = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
      db.on("query", listen);
      try {
        expect((await get("/api/ipam/ip-addresses/?limit=50")).status).to.equal(200);
      } finally {
        db.removeListener("query", listen);
      }
      const read = seen.find((q) => q.sql.includes('"ipam_ipaddress"'))!;
      // The driver's numbered parameters, written in as literals (and any `?` kept from Knex's own).
      const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
      const sql = read.sql.replace(/\$(\d+)/g, (_, n) => literal(read.bindings[Number(n) - 1])).replace(/\?/g, "\\?");
      const plan = (await db.raw(`EXPLAIN ${sql}`)).rows.map((r: any) => r["QUERY PLAN"]).join("\n");
      expect(plan).to.include("ipam_ipaddress_ordering_idx");
    } finally {
      await db("ipam_ipaddress").where({ description: tag }).del();
    }
  });
});
