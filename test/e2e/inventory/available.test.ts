// A prefix's free space over HTTP, as automation uses it: available-prefixes as the fewest
// CIDR blocks around the children (nested ones too), available-ips skipping what is used and
// a plain IPv4 prefix's network and broadcast, POSTs that allocate one or a list (all or
// none), Nautobot's refusals, and concurrent allocations (of one prefix, or of a prefix and its
// child) that never hand out one address twice nor leave a hole where a failed request was.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";
import { startTestServer } from "../../support/server.js";

describe("inventory e2e: available prefixes and IP addresses", () => {
  const tag = uniq("avail").toLowerCase();
  const n = process.pid % 200;
  let vrf: any;

  const prefix = async (p: string, extra: Record<string, unknown> = {}) => {
    const res = await post("/api/ipam/prefixes/", { prefix: p, status: "active", vrf: vrf.id, ...extra });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };

  before(async () => {
    vrf = (await post("/api/ipam/vrfs/", { name: `${tag}-vrf` })).body;
  });

  it("lists free space as CIDR blocks around children, nested ones counted once", async () => {
    const parent = await prefix(`10.${n}.0.0/16`, { status: "container" });
    await prefix(`10.${n}.0.0/24`);
    await prefix(`10.${n}.0.128/25`);
    await prefix(`10.${n}.2.0/23`);
    const res = await get(`/api/ipam/prefixes/${parent.id}/available-prefixes/`);
    expect(res.status, res.text).to.equal(200);
    const nestedVrf = { id: vrf.id, url: vrf.url, display: vrf.display, name: vrf.name, rd: null };
    expect(res.body[0]).to.deep.equal({ family: 4, prefix: `10.${n}.1.0/24`, vrf: nestedVrf });
    expect(res.body.map((x: any) => x.prefix)).to.deep.equal([
      `10.${n}.1.0/24`, `10.${n}.4.0/22`, `10.${n}.8.0/21`, `10.${n}.16.0/20`, `10.${n}.32.0/19`, `10.${n}.64.0/18`, `10.${n}.128.0/17`,
    ]);
  });

  it("allocates the first block of each requested size, one or a list, in the parent's VRF", async () => {
    const parent = await prefix(`10.${n}.200.0/22`, { status: "container" });
    await prefix(`10.${n}.200.0/25`);
    const one = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 26, status: "active", description: "one" });
    expect(one.status, one.text).to.equal(201);
    expect(one.body).to.deep.include({ prefix: `10.${n}.200.128/26`, description: "one" });
    expect(one.body.vrf.id).to.equal(vrf.id);
    const many = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, [{ prefix_length: 24, status: "active" }, { prefix_length: 26, status: "reserved" }]);
    expect(many.status, many.text).to.equal(201);
    expect(many.body.map((x: any) => x.prefix)).to.deep.equal([`10.${n}.201.0/24`, `10.${n}.200.192/26`]);
    // The parent named in the body, as the Ansible collection sends it, is ignored, as other unknown keys are.
    const named = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 28, status: "active", parent: parent.prefix });
    expect([named.status, named.body.prefix]).to.deep.equal([201, `10.${n}.202.0/28`]);
    const unknown = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 28, status: "active", colour: "red" });
    expect([unknown.status, unknown.body.prefix]).to.deep.equal([201, `10.${n}.202.16/28`]);
    const tooBig = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 21, status: "active" });
    expect(tooBig.status).to.equal(204);
    const cases: Array<[unknown, unknown]> = [
      [{ status: "active" }, [{ prefix_length: ["this field can not be missing"] }]],
      [{ prefix_length: "24", status: "active" }, [{ prefix_length: ["this field must be int type"] }]],
      [{ prefix_length: 33, status: "active" }, [{ prefix_length: ["Invalid prefix length (33) for IPv4"] }]],
      [[{ prefix_length: 28, status: "active" }, { prefix_length: 40 }], [{}, { prefix_length: ["Invalid prefix length (40) for IPv4"] }]],
      [{ prefix_length: 28 }, { status: ["This field is required."] }],
      [[{ prefix_length: 28, status: "active" }, { prefix_length: 28, status: "nope" }], [{}, { status: ["Object with slug=nope does not exist."] }]],
      [7, { non_field_errors: ["Invalid data. Expected a dictionary, but got int."] }],
    ];
    const before = await rows("ipam_prefix", { vrf_id: vrf.id });
    for (const [body, errors] of cases) {
      const res = await post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("ipam_prefix", { vrf_id: vrf.id })).to.equal(before);
  });

  it("lists free addresses, keeping back a plain IPv4 prefix's first and last, all of a pool's", async () => {
    const plain = await prefix(`10.${n}.210.0/29`);
    for (const a of [2, 3, 5]) await post("/api/ipam/ip-addresses/", { address: `10.${n}.210.${a}/29`, status: "active", vrf: vrf.id });
    // Another VRF's address takes nothing from this prefix.
    await post("/api/ipam/ip-addresses/", { address: `10.${n}.210.1/29`, status: "active" });
    const res = await get(`/api/ipam/prefixes/${plain.id}/available-ips/`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.map((x: any) => x.address)).to.deep.equal([`10.${n}.210.1/29`, `10.${n}.210.4/29`, `10.${n}.210.6/29`]);
    expect(res.body[0]).to.deep.include({ family: 4 });
    expect((await get(`/api/ipam/prefixes/${plain.id}/available-ips/?limit=2`)).body).to.have.length(2);
    const pool = await prefix(`10.${n}.211.0/30`, { is_pool: true });
    expect((await get(`/api/ipam/prefixes/${pool.id}/available-ips/`)).body.map((x: any) => x.address))
      .to.deep.equal([0, 1, 2, 3].map((i) => `10.${n}.211.${i}/30`));
    const v6 = await prefix(`2001:db8:${n.toString(16)}::/126`);
    expect((await get(`/api/ipam/prefixes/${v6.id}/available-ips/`)).body.map((x: any) => x.address))
      .to.deep.equal([0, 1, 2, 3].map((i) => `2001:db8:${n.toString(16)}::${i === 0 ? "" : i}/126`.replace("::/", "::/")));
  });

  it("allocates the next free addresses, refuses when too few are left, and creates nothing then", async () => {
    const p = await prefix(`10.${n}.212.0/29`);
    const one = await post(`/api/ipam/prefixes/${p.id}/available-ips/`, { status: "active", description: "first" });
    expect(one.status, one.text).to.equal(201);
    expect(one.body).to.deep.include({ address: `10.${n}.212.1/29`, description: "first" });
    expect(one.body.vrf.id).to.equal(vrf.id);
    const two = await post(`/api/ipam/prefixes/${p.id}/available-ips/`, [{ status: "active", prefix: p.prefix }, { status: "reserved" }]);
    expect(two.status, two.text).to.equal(201);
    expect(two.body.map((x: any) => x.address)).to.deep.equal([`10.${n}.212.2/29`, `10.${n}.212.3/29`]);
    const bad = await post(`/api/ipam/prefixes/${p.id}/available-ips/`, [{ status: "active" }, { status: "nope" }]);
    expect([bad.status, bad.body]).to.deep.equal([400, [{}, { status: ["Object with slug=nope does not exist."] }]]);
    const tooMany = await post(`/api/ipam/prefixes/${p.id}/available-ips/`, [1, 2, 3, 4].map(() => ({ status: "active" })));
    expect(tooMany.status).to.equal(204);
    expect(await rows("ipam_prefix", { vrf_id: vrf.id, prefix: `10.${n}.212.0/29` })).to.equal(1);
    expect((await get(`/api/ipam/ip-addresses/?parent=10.${n}.212.0/29&vrf_id=${vrf.id}`)).body.count).to.equal(3);
    const missing = await post("/api/ipam/prefixes/00000000-0000-4000-8000-000000000000/available-ips/", { status: "active" });
    expect(missing.status).to.equal(404);
  });

  it("hands out distinct addresses to 20 concurrent allocations", async () => {
    const p = await prefix(`10.${n}.213.0/24`);
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(`/api/ipam/prefixes/${p.id}/available-ips/`, { status: "active" })));
    expect(replies.map((r) => r.status)).to.deep.equal(Array(20).fill(201));
    const addresses = replies.map((r) => r.body.address);
    expect(new Set(addresses).size).to.equal(20);
    expect([...addresses].sort((a, b) => Number(a.split(".")[3].split("/")[0]) - Number(b.split(".")[3].split("/")[0])))
      .to.deep.equal(Array.from({ length: 20 }, (_, i) => `10.${n}.213.${i + 1}/24`));
  });

  it("gives N parallel allocations N distinct addresses in a constant number of statements per batch, each its own request's change", async () => {
    const { db, engine } = await startTestServer();
    const p = await prefix(`10.${n}.220.0/24`);
    const sql: string[] = [];
    const listen = (q: { sql: string }) => {
      if (!q.sql.includes('"users_token"') && !q.sql.includes('"users_objectpermission"')) sql.push(q.sql);
    };
    db.on("query", listen);
    const N = 40;
    let replies;
    try {
      replies = await Promise.all(Array.from({ length: N }, (_, i) => post(`/api/ipam/prefixes/${p.id}/available-ips/`, { status: "active", description: `parallel ${i}` })));
    } finally {
      db.removeListener("query", listen);
    }
    expect(replies.map((r) => r.status)).to.deep.equal(Array(N).fill(201));
    expect(replies.map((r) => host(r.body.address)).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: N }, (_, i) => i + 1));
    replies.forEach((r, i) => expect(r.body.description).to.equal(`parallel ${i}`));
    // Per batch: its transaction (lock, search, one set written, the change records) and one
    // read of the answers; per request only the check that the prefix may be viewed.
    const batches = sql.filter((s) => s.startsWith("select pg_advisory_xact_lock")).length;
    // PostgreSQL's pool checks the next requests while a batch holds a connection, so they
    // wait together for the next batch; PGlite's one connection lets them in one at a time.
    if (engine === "postgresql") expect(batches).to.be.within(1, N / 2);
    expect(sql.length).to.be.at.most(batches * 16 + N);
    const ids = replies.map((r) => r.body.id);
    const changes = await db("extras_objectchange").whereIn("changed_object_id", ids).select("changed_object_id", "request_id", "action");
    expect(changes.map((c: any) => c.action).sort()).to.deep.equal(Array(N).fill("create"));
    expect(new Set(changes.map((c: any) => c.request_id)).size).to.equal(N);
    const requestOf = new Map(changes.map((c: any) => [c.changed_object_id, c.request_id]));
    replies.forEach((r) => expect(requestOf.get(r.body.id)).to.equal(r.headers.get("x-request-id")));
  });

  const host = (address: string) => Number(address.split("/")[0].split(".")[3]);

  // What one batch found is carried to the next for a moment, so that a burst searches once:
  // it must never hide room a delete or an update just freed, nor hand out an address that
  // was taken outside an allocation since.
  it("hands out room a delete or an update just freed, and skips an address created meanwhile", async () => {
    // A VRF that takes duplicates: nothing but the allocation's own check keeps it from handing out a taken address.
    const lax = (await post("/api/ipam/vrfs/", { name: `${tag}-lax`, enforce_unique: false })).body;
    const p = await prefix(`10.${n}.221.0/28`, { vrf: lax.id });
    const url = `/api/ipam/prefixes/${p.id}/available-ips/`;
    const next = async () => {
      const res = await post(url, { status: "active" });
      expect(res.status, res.text).to.equal(201);
      return res.body;
    };
    const first = await next();
    const second = await next();
    expect([first.address, second.address]).to.deep.equal([`10.${n}.221.1/28`, `10.${n}.221.2/28`]);
    expect((await del(`/api/ipam/ip-addresses/${first.id}/`)).status).to.equal(204);
    expect((await next()).address).to.equal(`10.${n}.221.1/28`);
    const moved = await patch(`/api/ipam/ip-addresses/${second.id}/`, { address: `10.${n}.221.14/28` });
    expect(moved.status, moved.text).to.equal(200);
    expect((await next()).address).to.equal(`10.${n}.221.2/28`);
    const outside = await post("/api/ipam/ip-addresses/", { address: `10.${n}.221.3/28`, vrf: lax.id, status: "active" });
    expect(outside.status, outside.text).to.equal(201);
    expect((await next()).address).to.equal(`10.${n}.221.4/28`);
    expect((await get(`/api/ipam/ip-addresses/?parent=10.${n}.221.0/28&vrf_id=${lax.id}&limit=100`)).body.results.map((x: any) => host(x.address)).sort((a: number, b: number) => a - b))
      .to.deep.equal([1, 2, 3, 4, 14]);
  });

  it("gives parallel singles and lists the first free addresses once each; a list that fails or finds too little takes none", async () => {
    const p = await prefix(`10.${n}.214.0/27`);
    const url = `/api/ipam/prefixes/${p.id}/available-ips/`;
    const one = { status: "active" };
    const three = [{ status: "active" }, { status: "reserved" }, { status: "active" }];
    const bad = [{ status: "active" }, { status: "nope" }];
    const long = Array(31).fill(one);
    // Failures between successes: whatever a failed request had been given goes to those after it.
    const bodies = [one, bad, one, three, one, bad, one, three, long, one, one, three, bad, one, one];
    const replies = await Promise.all(bodies.map((b) => post(url, b)));
    expect(replies.map((r) => r.status)).to.deep.equal(bodies.map((b) => (b === bad ? 400 : b === long ? 204 : 201)));
    for (const r of replies.filter((_, i) => bodies[i] === bad)) expect(r.body).to.deep.equal([{}, { status: ["Object with slug=nope does not exist."] }]);
    // Each list's addresses are consecutive; together they are the first 17, none twice.
    for (const list of replies.filter((_, i) => bodies[i] === three)) {
      const hosts = list.body.map((x: any) => host(x.address));
      expect(hosts).to.deep.equal([hosts[0], hosts[0] + 1, hosts[0] + 2]);
      expect(list.body.map((x: any) => x.status.value)).to.deep.equal(["active", "reserved", "active"]);
    }
    const handed = replies.filter((r) => r.status === 201).flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]).map((x: any) => x.address));
    expect(handed.map(host).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 17 }, (_, i) => i + 1));
    const stored = await get(`/api/ipam/ip-addresses/?parent=10.${n}.214.0/27&vrf_id=${vrf.id}&limit=100`);
    expect(stored.body.results.map((x: any) => x.address).sort()).to.deep.equal([...handed].sort());
  });

  it("never hands an address out twice to a prefix and its child allocating at once", async () => {
    const parent = await prefix(`10.${n}.215.0/24`);
    const child = await prefix(`10.${n}.215.0/27`);
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => post(`/api/ipam/prefixes/${(i % 2 ? child : parent).id}/available-ips/`, { status: "active" })));
    expect(replies.map((r) => r.status)).to.deep.equal(Array(16).fill(201));
    expect(replies.map((r) => r.body.address.split("/")[1])).to.deep.equal(Array.from({ length: 16 }, (_, i) => (i % 2 ? "27" : "24")));
    expect(replies.map((r) => host(r.body.address)).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it("asks for the objects of a batch together: a missing one is a 404 to its requests alone, before a bad body", async () => {
    const p = await prefix(`10.${n}.217.0/29`);
    const gone = "00000000-0000-4000-8000-000000000000";
    const addresses = await rows("ipam_ipaddress");
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`/api/ipam/prefixes/${i % 2 ? gone : p.id}/available-ips/`, { status: "active" })));
    expect(replies.map((r) => r.status)).to.deep.equal(Array.from({ length: 8 }, (_, i) => (i % 2 ? 404 : 201)));
    expect(replies.filter((r) => r.status === 404).map((r) => r.body)).to.deep.equal(Array(4).fill({ detail: "Not found." }));
    expect(await rows("ipam_ipaddress")).to.equal(addresses + 4);
    expect((await post(`/api/ipam/prefixes/${gone}/available-ips/`, ["not an object"])).status).to.equal(404);
    const refused = await post(`/api/ipam/prefixes/${p.id}/available-ips/`, ["not an object"]);
    expect(refused.status).to.equal(400);
  });

  it("gives parallel prefix allocations distinct blocks, the first free ones", async () => {
    const parent = await prefix(`10.${n}.216.0/24`, { status: "container" });
    const url = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
    const replies = await Promise.all([
      ...Array.from({ length: 10 }, () => post(url, { prefix_length: 28, status: "active" })),
      post(url, { prefix_length: 40, status: "active" }),
    ]);
    expect(replies.map((r) => r.status)).to.deep.equal([...Array(10).fill(201), 400]);
    expect(replies.slice(0, 10).map((r) => r.body.prefix).sort((a, b) => host(a) - host(b)))
      .to.deep.equal(Array.from({ length: 10 }, (_, i) => `10.${n}.216.${i * 16}/28`));
    expect((await get(`/api/ipam/prefixes/?within=10.${n}.216.0/24&vrf_id=${vrf.id}`)).body.count).to.equal(10);
  });
});
