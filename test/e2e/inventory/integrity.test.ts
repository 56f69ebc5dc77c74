// All-or-none and concurrency on the inventory API: bulk updates and deletes refuse the whole
// body when any element names an unknown or malformed id; of parallel deletes exactly one
// succeeds; parallel unique creates give one object and field-named 400s; values PostgreSQL
// would refuse (IPv6 zone ids) never reach it.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { call, del, get, patch, post, put } from "../../support/http.js";
import { MISSING_ID, row, rows, uniq } from "./support.js";

const TAGS = "/api/extras/tags/";

async function tags(n: number): Promise<Array<{ id: string; name: string }>> {
  const res = await post(TAGS, Array.from({ length: n }, () => ({ name: uniq("integrity") })));
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

describe("inventory e2e: integrity under bad ids and concurrency", () => {
  for (const method of ["PATCH", "PUT", "DELETE"] as const) {
    it(`bulk ${method} with an unknown id at each position → 400 naming that element, nothing changed`, async () => {
      for (let at = 0; at < 3; at++) {
        const existing = await tags(2);
        const items: Array<Record<string, unknown>> = existing.map((t) => ({ id: t.id, name: `${t.name}-x`, description: "changed" }));
        items.splice(at, 0, { id: MISSING_ID, name: uniq("ghost"), description: "changed" });
        const res = await call(method, TAGS, { body: items });
        expect(res.status, `${method} at ${at}`).to.equal(400);
        const expected = [{}, {}, {}] as object[];
        expected[at] = { id: ["Object with this ID does not exist."] };
        expect(res.body).to.deep.equal(expected);
        for (const t of existing) expect(await row("extras_tag", t.id)).to.include({ name: t.name, description: "" });
      }
    });
  }

  it("an id that is a list, number, object, null, missing or repeated refuses the whole body", async () => {
    const [a, b] = await tags(2);
    const cases: Array<[unknown, object]> = [
      [[a.id], { id: ["Must be a valid UUID."] }],
      [42, { id: ["Must be a valid UUID."] }],
      [{ id: a.id }, { id: ["Must be a valid UUID."] }],
      [null, { id: ["Must be a valid UUID."] }],
      [undefined, { id: ["This field is required."] }],
      [a.id.toUpperCase(), { id: ["This object appears more than once in the request."] }],
    ];
    for (const [id, error] of cases) {
      for (const method of ["PATCH", "DELETE"]) {
        const res = await call(method, TAGS, { body: [{ id: a.id, description: "changed" }, { id, description: "changed" }, { id: b.id }] });
        expect(res.status, `${method} ${JSON.stringify(id)}`).to.equal(400);
        expect(res.body).to.deep.equal([{}, error, {}]);
      }
    }
    const notObjects = await del(TAGS, [a.id, [a.id]]);
    expect(notObjects.body).to.deep.equal([
      { non_field_errors: ["Invalid data. Expected a dictionary, but got str."] },
      { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] },
    ]);
    for (const t of [a, b]) expect(await row("extras_tag", t.id)).to.include({ description: "" });
  });

  it("an object the requester cannot see counts as unknown in a bulk body", async () => {
    const server = await startTestServer();
    const other = await server.user(uniq("integrity-user"));
    const { id } = await server.db("users_token").select("id").where("key", other.key).first();
    // Tokens are scoped to their owner: the admin's bulk delete must not reach this one.
    const res = await del("/api/users/tokens/", [{ id }]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal([{ id: ["Object with this ID does not exist."] }]);
    expect(await rows("users_token", { id })).to.equal(1);
  });

  it("20 parallel deletes of one object: exactly one 204, the others 404", async () => {
    const [t] = await tags(1);
    const replies = await Promise.all(Array.from({ length: 20 }, () => del(`${TAGS}${t.id}/`)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 204)).to.have.length(1);
    expect(statuses.filter((s) => s !== 204)).to.deep.equal(Array(19).fill(404));
    expect(await rows("extras_tag", { id: t.id })).to.equal(0);
  });

  it("parallel bulk deletes of overlapping sets: one 204, the others 400, no 5xx", async () => {
    const set = await tags(3);
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => del(TAGS, (i % 2 ? [...set].reverse() : set).map((t) => ({ id: t.id })))));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).to.have.length(1);
    expect(statuses.filter((s) => s !== 204).every((s) => s === 400)).to.equal(true);
  });

  it("PATCH racing a delete: 200 or 404, never 5xx, and the object is gone", async () => {
    const [t] = await tags(1);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => patch(`${TAGS}${t.id}/`, { description: "racing" })),
      del(`${TAGS}${t.id}/`),
      ...Array.from({ length: 5 }, () => patch(`${TAGS}${t.id}/`, { description: "racing" })),
    ]);
    for (const r of replies) expect(r.status).to.be.oneOf([200, 204, 404]);
    expect(await rows("extras_tag", { id: t.id })).to.equal(0);
  });

  it("20 parallel creates of one unique name: one 201, the rest the sequential 400, one row", async () => {
    const name = uniq("race-tenant");
    const replies = await Promise.all(Array.from({ length: 20 }, () => post("/api/tenancy/tenants/", { name, slug: name })));
    const created = replies.filter((r) => r.status === 201);
    expect(created).to.have.length(1);
    const sequential = await post("/api/tenancy/tenants/", { name, slug: name });
    for (const r of replies.filter((x) => x.status !== 201)) {
      expect(r.status).to.equal(400);
      expect(Object.keys(r.body).some((k) => k in sequential.body)).to.equal(true);
    }
    expect(await rows("tenancy_tenant", { name })).to.equal(1);
    const bulk = await Promise.all(Array.from({ length: 6 }, () => post(TAGS, [{ name: `${name}-b1` }, { name: `${name}-b2` }])));
    expect(bulk.map((r) => r.status).sort()).to.deep.equal([201, 400, 400, 400, 400, 400]);
    expect(await rows("extras_tag", { name: `${name}-b1` })).to.equal(1);
  });

  it("IPv6 zone ids are 400 in every address filter and in writes, never a 5xx", async () => {
    const zone = "fe80::1%eth0/64";
    for (const [path, params] of [
      ["/api/ipam/ip-addresses/", ["address", "parent", "q"]],
      ["/api/ipam/prefixes/", ["prefix", "within", "within_include", "contains", "q"]],
    ] as const) {
      for (const p of params) {
        const res = await get(`${path}?${p}=${encodeURIComponent(zone)}`);
        if (p === "q") expect(res.status, `${path} ${p}`).to.equal(200);
        else {
          expect(res.status, `${path} ${p}`).to.equal(400);
          expect(res.body).to.have.key(p);
        }
      }
    }
    const before = await rows("ipam_ipaddress");
    const ip = await post("/api/ipam/ip-addresses/", { address: zone, status: "active" });
    expect(ip.status).to.equal(400);
    expect(ip.body).to.have.key("address");
    const prefix = await post("/api/ipam/prefixes/", { prefix: "fe80::%1/64", status: "active" });
    expect(prefix.status).to.equal(400);
    expect(prefix.body).to.have.key("prefix");
    expect(await rows("ipam_ipaddress")).to.equal(before);
  });

  it("prototype-named keys in a body: `__proto__` refused when parsed, the others ignored like other unknown keys", async () => {
    const name = uniq("proto");
    const proto = await call("POST", "/api/tenancy/tenants/", { body: `{"name":"${name}","slug":"${name}","__proto__":{"x":1}}`, raw: true });
    expect(proto.status).to.equal(400);
    expect(await rows("tenancy_tenant", { name })).to.equal(0);
    for (const extra of ['"constructor":{"x":1}', '"prototype":[1]']) {
      const other = uniq("proto");
      const res = await call("POST", "/api/tenancy/tenants/", { body: `{"name":"${other}","slug":"${other}",${extra}}`, raw: true });
      expect(res.status, extra).to.equal(201);
      expect(res.body, extra).to.not.have.own.property("x");
      expect(await rows("tenancy_tenant", { name: other })).to.equal(1);
    }
    const site = await put(`/api/tenancy/tenants/${MISSING_ID}/`, { name, slug: name, constructor: 1 });
    expect(site.status).to.equal(404);
    expect(({} as { x?: unknown }).x).to.equal(undefined);
  });
});
