// Prefix and IP-address network filters over HTTP: prefix, within, within_include,
// contains, family, mask_length(+gte/lte), IP parent/address/mask_length, and 400 for every
// unparsable network value. Each query is scoped to a VRF this suite owns.
import { expect } from "chai";
import { get, post } from "../../support/http.js";
import { uniq } from "./support.js";

describe("inventory e2e: network filters", () => {
  let rd: string;

  async function prefixes(query: string): Promise<string[]> {
    const res = await get(`/api/ipam/prefixes/?vrf=${encodeURIComponent(rd)}&${query}`);
    expect(res.status, `${query}: ${res.text}`).to.equal(200);
    return res.body.results.map((p: { prefix: string }) => p.prefix).sort();
  }

  async function addresses(query: string): Promise<string[]> {
    const res = await get(`/api/ipam/ip-addresses/?vrf=${encodeURIComponent(rd)}&${query}`);
    expect(res.status, `${query}: ${res.text}`).to.equal(200);
    return res.body.results.map((p: { address: string }) => p.address).sort();
  }

  async function refused(path: string, param: string): Promise<void> {
    const res = await get(path);
    expect(res.status, path).to.equal(400);
    expect(Object.keys(res.body), path).to.deep.equal([param]);
    expect(res.body[param][0]).to.be.a("string");
  }

  before(async () => {
    rd = `65000:${process.pid}${Math.floor(Math.random() * 1000)}`;
    const vrf = await post("/api/ipam/vrfs/", { name: uniq("VRF"), rd });
    expect(vrf.status).to.equal(201);
    const p = await post("/api/ipam/prefixes/", ["10.50.0.0/16", "10.50.1.0/24", "10.50.1.128/25", "10.50.2.0/24", "2001:db8:50::/48"]
      .map((prefix) => ({ prefix, status: "active", vrf: { rd } })));
    expect(p.status).to.equal(201);
    const a = await post("/api/ipam/ip-addresses/", ["10.50.1.5/24", "10.50.1.200/25", "10.60.0.1/8", "2001:db8:50::1/64"]
      .map((address) => ({ address, status: "active", vrf: vrf.body.id })));
    expect(a.status).to.equal(201);
  });

  it("a prefix with host bits set is stored as its network", async () => {
    const res = await post("/api/ipam/prefixes/", { prefix: "10.51.7.9/16", status: "active", vrf: { rd } });
    expect(res.status).to.equal(201);
    expect(res.body.prefix).to.equal("10.51.0.0/16");
    await get(`/api/ipam/prefixes/${res.body.id}/`).then((r) => expect(r.body.prefix).to.equal("10.51.0.0/16"));
  });

  it("prefix: exact network match, repeated = OR", async () => {
    expect(await prefixes("prefix=10.50.1.0/24")).to.deep.equal(["10.50.1.0/24"]);
    expect(await prefixes("prefix=10.50.1.0/24&prefix=2001:db8:50::/48")).to.deep.equal(["10.50.1.0/24", "2001:db8:50::/48"]);
    expect(await prefixes("prefix=10.50.3.0/24")).to.deep.equal([]);
  });

  it("within (strictly inside) and within_include (inside or equal)", async () => {
    expect(await prefixes("within=10.50.0.0/16")).to.deep.equal(["10.50.1.0/24", "10.50.1.128/25", "10.50.2.0/24"]);
    expect(await prefixes("within_include=10.50.0.0/16")).to.deep.equal(["10.50.0.0/16", "10.50.1.0/24", "10.50.1.128/25", "10.50.2.0/24"]);
    expect(await prefixes("within=10.50.1.0/24")).to.deep.equal(["10.50.1.128/25"]);
  });

  it("contains: prefixes containing a network or a bare IP", async () => {
    expect(await prefixes("contains=10.50.1.0/24")).to.deep.equal(["10.50.0.0/16", "10.50.1.0/24"]);
    expect(await prefixes("contains=10.50.1.130")).to.deep.equal(["10.50.0.0/16", "10.50.1.0/24", "10.50.1.128/25"]);
    expect(await prefixes("contains=2001:db8:50:1::1")).to.deep.equal(["2001:db8:50::/48"]);
  });

  it("family and mask_length (with gte/lte); filters AND together", async () => {
    expect(await prefixes("family=6")).to.deep.equal(["2001:db8:50::/48"]);
    expect(await prefixes("family=4")).to.have.length(5);
    expect(await prefixes("mask_length=24")).to.deep.equal(["10.50.1.0/24", "10.50.2.0/24"]);
    expect(await prefixes("mask_length=24&mask_length=25")).to.have.length(3);
    expect(await prefixes("mask_length__gte=25")).to.deep.equal(["10.50.1.128/25", "2001:db8:50::/48"]);
    expect(await prefixes("mask_length__lte=16")).to.deep.equal(["10.50.0.0/16", "10.51.0.0/16"]);
    expect(await prefixes("family=4&within=10.50.0.0/16&mask_length=24")).to.deep.equal(["10.50.1.0/24", "10.50.2.0/24"]);
  });

  it("IP addresses: parent (host inside, any mask), mask_length, family, address", async () => {
    expect(await addresses("parent=10.50.1.0/24")).to.deep.equal(["10.50.1.200/25", "10.50.1.5/24"]);
    expect(await addresses("parent=10.0.0.0/8")).to.deep.equal(["10.50.1.200/25", "10.50.1.5/24", "10.60.0.1/8"]);
    expect(await addresses("mask_length=24")).to.deep.equal(["10.50.1.5/24"]);
    expect(await addresses("family=6")).to.deep.equal(["2001:db8:50::1/64"]);
    expect(await addresses("address=10.50.1.5")).to.deep.equal(["10.50.1.5/24"]);
    expect(await addresses("address=10.50.1.5/24")).to.deep.equal(["10.50.1.5/24"]);
    expect(await addresses("address=10.50.1.5/25")).to.deep.equal([]);
  });

  it("q on prefixes and IP addresses also matches a partial address", async () => {
    expect(await prefixes("q=10.50")).to.deep.equal(["10.50.0.0/16", "10.50.1.0/24", "10.50.1.128/25", "10.50.2.0/24"]);
    expect(await prefixes("q=10.50.1.")).to.deep.equal(["10.50.1.0/24", "10.50.1.128/25"]);
    expect(await prefixes("q=2001:db8:50")).to.deep.equal(["2001:db8:50::/48"]);
    expect(await prefixes("q=10")).to.have.length(5);
    expect(await prefixes("q=10.50.1.0/24")).to.deep.equal(["10.50.1.0/24", "10.50.1.128/25"]);
    expect(await addresses("q=10.50.1")).to.deep.equal(["10.50.1.200/25", "10.50.1.5/24"]);
    expect(await addresses("q=10.60.0.1")).to.deep.equal(["10.60.0.1/8"]);
    expect(await addresses("q=2001")).to.deep.equal(["2001:db8:50::1/64"]);
    expect(await prefixes("q=999.1")).to.deep.equal([]);
  });

  it("q on prefixes matches the description as ILIKE does: any case, wildcards and backslashes literally", async () => {
    const own = `65001:${process.pid}${Math.floor(Math.random() * 1000)}`;
    expect((await post("/api/ipam/vrfs/", { name: uniq("VRF"), rd: own })).status).to.equal(201);
    const made = await post("/api/ipam/prefixes/", [["10.70.1.0/24", "Uplink to CORE router"], ["10.70.2.0/24", "100% _done\\ here"], ["10.70.3.0/24", "Straße Øst"], ["10.70.4.0/24", "ab"]]
      .map(([prefix, description]) => ({ prefix, description, status: "active", vrf: { rd: own } })));
    expect(made.status, made.text).to.equal(201);
    const described = async (q: string) => (await get(`/api/ipam/prefixes/?vrf=${encodeURIComponent(own)}&q=${encodeURIComponent(q)}`)).body.results.map((x: any) => x.description).sort();
    expect(await described("core")).to.deep.equal(["Uplink to CORE router"]);
    expect(await described("ORE ROU")).to.deep.equal(["Uplink to CORE router"]);
    expect(await described("0% _d")).to.deep.equal(["100% _done\\ here"]);
    expect(await described("e\\ h")).to.deep.equal(["100% _done\\ here"]);
    expect(await described("0_ _")).to.deep.equal([]);
    expect(await described("STRAßE ØST")).to.deep.equal(["Straße Øst"]);
    expect(await described("ab")).to.deep.equal(["ab"]);
    expect(await described("tor")).to.deep.equal([]);
    expect(await described("10.70.2")).to.deep.equal(["100% _done\\ here"]);
  });

  it("vrf filter by rd or UUID scopes to the VRF", async () => {
    const vrfId = (await get(`/api/ipam/vrfs/?rd=${encodeURIComponent(rd)}`)).body.results[0].id;
    const byId = await get(`/api/ipam/prefixes/?vrf_id=${vrfId}`);
    expect(byId.body.count).to.equal(6);
    const byRd = await get(`/api/ipam/prefixes/?vrf=${encodeURIComponent(rd)}`);
    expect(byRd.body.count).to.equal(6);
  });

  it("unparsable network values → 400, never 5xx", async () => {
    await refused("/api/ipam/prefixes/?prefix=zz", "prefix");
    await refused("/api/ipam/prefixes/?within=10.0.0.0/33", "within");
    await refused("/api/ipam/prefixes/?within_include=bad", "within_include");
    await refused("/api/ipam/prefixes/?contains=10.0.0.300", "contains");
    await refused("/api/ipam/prefixes/?family=5", "family");
    await refused("/api/ipam/prefixes/?family=four", "family");
    await refused("/api/ipam/prefixes/?mask_length=x", "mask_length");
    await refused("/api/ipam/prefixes/?mask_length=129", "mask_length");
    await refused("/api/ipam/prefixes/?mask_length__gte=-1", "mask_length__gte");
    await refused("/api/ipam/ip-addresses/?parent=10.0.0/8x", "parent");
    await refused("/api/ipam/ip-addresses/?address=1.2.3.4.5", "address");
    await refused("/api/ipam/ip-addresses/?mask_length=abc", "mask_length");
    await refused("/api/ipam/prefixes/?vrf=no-such-rd", "vrf");
    await refused("/api/ipam/prefixes/?within=10.50.1/24", "within");
    await refused("/api/ipam/prefixes/?contains=10.50.1", "contains");
  });

  it("inet_aton shorthands are not networks on write either (PostgreSQL would read them differently)", async () => {
    const res = await post("/api/ipam/prefixes/", { prefix: "10.52.1/24", status: "active", vrf: { rd } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ prefix: ["Enter a valid IPv4 or IPv6 network in CIDR notation: 10.52.1/24"] });
    const ip = await post("/api/ipam/ip-addresses/", { address: "10.52.1", status: "active" });
    expect(ip.status).to.equal(400);
    expect(await prefixes("within_include=10.52.0.0/16")).to.deep.equal([]);
  });
});
