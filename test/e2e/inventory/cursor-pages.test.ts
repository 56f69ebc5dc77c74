// Pages by cursor (`?cursor=`, empty for the first): the rows after the last one shown, in the
// list's order, read from the order's index rather than skipping an offset. A walk gives the
// same rows in the same order as the offset pages, however the order treats NULLs, and a
// deleted row still marks its place.
import { expect } from "chai";
import { del, get, post } from "../../support/http.js";
import { statements } from "../../support/statements.js";
import { uniq } from "./support.js";

describe("inventory e2e: cursor pages", () => {
  const tag = uniq("cursor").toLowerCase();
  const octet = 30 + Math.floor(Math.random() * 150);
  let ids: string[] = [];

  before(async () => {
    const t = (await post("/api/extras/tags/", { name: tag, content_types: ["ipam.prefix"] })).body;
    const vrfs = [(await post("/api/ipam/vrfs/", { name: `${tag} b` })).body, (await post("/api/ipam/vrfs/", { name: `${tag} a` })).body];
    // Prefixes with and without a VRF (the order's first term, NULLs first), several per VRF.
    const body = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({
      prefix: `10.${octet}.${(i * 7) % 9}.0/24`, status: "active", vrf: i % 3 === 0 ? null : vrfs[i % 3 - 1].id, tags: [t.id],
    }));
    const made = await post("/api/ipam/prefixes/", body);
    expect(made.status, made.text).to.equal(201);
    ids = (await get(`/api/ipam/prefixes/?tag=${tag}&limit=0`)).body.results.map((p: { id: string }) => p.id);
    expect(ids).to.have.length(9);
  });

  async function walk(path: string): Promise<{ seen: string[]; pages: number }> {
    const seen: string[] = [];
    let next: string | null = path;
    let pages = 0;
    while (next) {
      const page: any = await get(next);
      expect(page.status, page.text).to.equal(200);
      expect(page.body.count).to.equal(9);
      expect(page.body.previous).to.equal(null);
      seen.push(...page.body.results.map((p: { id: string }) => p.id));
      next = page.body.next;
      pages++;
    }
    return { seen, pages };
  }

  it("walks every row once, in the offset pages' order", async () => {
    const { seen, pages } = await walk(`/api/ipam/prefixes/?tag=${tag}&limit=2&cursor=`);
    expect(seen).to.deep.equal(ids);
    expect(pages).to.equal(5);
    const whole = await get(`/api/ipam/prefixes/?tag=${tag}&limit=9&cursor=`);
    expect(whole.body.next, "a page that holds the rest has no next").to.equal(null);
  });

  it("another model's order (by name) walks the same way as its offset pages", async () => {
    const expected = (await get(`/api/tenancy/tenants/?limit=0`)).body.results.map((x: { id: string }) => x.id);
    const seen: string[] = [];
    let next: string | null = "/api/tenancy/tenants/?limit=3&cursor=";
    while (next) {
      const page: any = await get(next);
      seen.push(...page.body.results.map((x: { id: string }) => x.id));
      next = page.body.next;
    }
    expect(seen).to.deep.equal(expected);
  });

  it("a cursor whose row was deleted still marks its place", async () => {
    const first = await get(`/api/ipam/prefixes/?tag=${tag}&limit=4&cursor=`);
    const last = first.body.results.at(-1).id;
    expect((await del(`/api/ipam/prefixes/${last}/`)).status).to.equal(204);
    const rest = await get(first.body.next);
    expect(rest.status).to.equal(200);
    expect(rest.body.results.map((p: { id: string }) => p.id)).to.deep.equal(ids.slice(4, 8));
    ids = ids.filter((id) => id !== last);
  });

  it("a page by cursor is one statement", async () => {
    const first = await get(`/api/ipam/prefixes/?tag=${tag}&limit=3&cursor=`);
    const got = await statements(first.body.next.replace(/^https?:\/\/[^/]+/, ""));
    expect(got.status).to.equal(200);
    expect(got.body.results.map((p: { id: string }) => p.id)).to.deep.equal(ids.slice(3, 6));
    expect(got.sql, got.sql.join("\n")).to.have.length(1);
  });

  it("a cursor this server did not make is 404 'Invalid cursor', as DRF's CursorPagination answers", async () => {
    const forged = (values: unknown) => Buffer.from(JSON.stringify(values)).toString("base64url");
    for (const cursor of ["%%%", "bm90IGpzb24", forged({ a: 1 }), forged(["x"]), forged([null, "\\x0a000000", "not a number", "00000000-0000-4000-8000-000000000000"])]) {
      const res = await get(`/api/ipam/prefixes/?tag=${tag}&cursor=${cursor}`);
      expect(res.status, cursor).to.equal(404);
      expect(res.body, cursor).to.deep.equal({ detail: "Invalid cursor" });
    }
  });
});
