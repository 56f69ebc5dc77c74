// Limit/offset pagination: the envelope, absolute next/previous links that keep every
// filter (keys re-encoded in sorted order), the default and maximum page sizes, and how
// odd limit and offset values are treated.
import { expect } from "chai";
import { get, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { uniq } from "./support.js";

describe("inventory e2e: pagination", () => {
  let description: string;
  const total = 1005;

  before(async () => {
    description = uniq("page");
    const items = Array.from({ length: total }, (_, i) => ({ name: `${description}-${String(i).padStart(4, "0")}`, description }));
    const res = await post("/api/extras/tags/", items);
    expect(res.status).to.equal(201);
  });

  it("default page: 50 results, count of all matches, next link, no previous", async () => {
    const { url } = await startTestServer();
    const res = await get(`/api/extras/tags/?description=${description}`);
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(["count", "next", "previous", "results"]);
    expect(res.body.count).to.equal(total);
    expect(res.body.results).to.have.length(50);
    expect(res.body.previous).to.equal(null);
    expect(res.body.next).to.equal(`${url}/api/extras/tags/?description=${description}&limit=50&offset=50`);
  });

  it("limit and offset select the page; links keep filters in sorted key order", async () => {
    const { url } = await startTestServer();
    const res = await get(`/api/extras/tags/?offset=20&name__isw=${description}&limit=10&description=${description}`);
    expect(res.body.results).to.have.length(10);
    expect(res.body.results[0].name).to.equal(`${description}-0020`);
    expect(res.body.next).to.equal(`${url}/api/extras/tags/?description=${description}&limit=10&name__isw=${description}&offset=30`);
    expect(res.body.previous).to.equal(`${url}/api/extras/tags/?description=${description}&limit=10&name__isw=${description}&offset=10`);
    const first = await get(`/api/extras/tags/?description=${description}&limit=10&offset=5`);
    expect(first.body.previous).to.equal(`${url}/api/extras/tags/?description=${description}&limit=10`);
  });

  it("following next walks every object exactly once", async () => {
    const seen = new Set<string>();
    let next: string | null = `/api/extras/tags/?description=${description}&limit=400`;
    while (next) {
      const res: { status: number; body: any } = await get(next);
      expect(res.status).to.equal(200);
      for (const t of res.body.results) seen.add(t.id);
      next = res.body.next;
    }
    expect(seen.size).to.equal(total);
  });

  it("a limit above the maximum is clamped to 1000", async () => {
    const res = await get(`/api/extras/tags/?description=${description}&limit=5000`);
    expect(res.status).to.equal(200);
    expect(res.body.results).to.have.length(1000);
    expect(res.body.next).to.contain("limit=1000").and.contain("offset=1000");
  });

  it("limit=0 gives the maximum page because a maximum is set", async () => {
    const res = await get(`/api/extras/tags/?description=${description}&limit=0`);
    expect(res.status).to.equal(200);
    expect(res.body.results).to.have.length(1000);
    expect(res.body.count).to.equal(total);
  });

  it("negative or non-integer limit falls back to the default page size", async () => {
    for (const limit of ["-5", "abc", "2.5"]) {
      const res = await get(`/api/extras/tags/?description=${description}&limit=${limit}`);
      expect(res.status, limit).to.equal(200);
      expect(res.body.results, limit).to.have.length(50);
    }
  });

  it("an offset past the end gives 200 with empty results", async () => {
    const res = await get(`/api/extras/tags/?description=${description}&offset=5000`);
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(total);
    expect(res.body.results).to.deep.equal([]);
    expect(res.body.next).to.equal(null);
  });

  it("absurd offsets and limits are bounded, never a database error", async () => {
    for (const q of ["offset=9223372036854775808", "offset=1000000000000000000000000000000", "limit=99999999999999999999999"]) {
      const res = await get(`/api/extras/tags/?description=${description}&${q}`);
      expect(res.status, q).to.equal(200);
      expect(res.body.count).to.equal(total);
      if (res.body.previous) expect(res.body.previous, q).to.match(/offset=\d+$/);
    }
  });

  it("a bad offset counts as 0", async () => {
    const res = await get(`/api/extras/tags/?description=${description}&offset=abc&limit=5`);
    expect(res.body.results[0].name).to.equal(`${description}-0000`);
    expect(res.body.previous).to.equal(null);
  });

  it("the last page has no next", async () => {
    const res = await get(`/api/extras/tags/?description=${description}&limit=100&offset=1000`);
    expect(res.body.results).to.have.length(5);
    expect(res.body.next).to.equal(null);
    expect(res.body.previous).to.contain("offset=900");
  });
});
