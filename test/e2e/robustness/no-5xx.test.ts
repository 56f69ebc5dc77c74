// "A 5xx is a bug": a seeded, bounded sweep of hostile requests over both APIs. Every reply
// must be below 500, carry the API's security headers, and hold no stack, exception or SQL
// text; afterwards normal writes must still work, so a request that broke the server fails
// here. FUZZ_REQUESTS sets the length (`make fuzz` runs 10,000; the suite a slice).
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { post } from "../../support/http.js";
import { NS } from "../calendar/support.js";
import { uniq } from "../inventory/support.js";
import { hostileRequest, LEAK, seeded } from "./hostile.js";

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

describe("robustness: no 5xx for hostile input", () => {
  it(`${REQUESTS} seeded hostile requests (seed ${SEED}): replies below 500, headers on each, no leaked internals, writes still work`, async function () {
    this.timeout(Math.max(120000, REQUESTS * 60));
    const server = await startTestServer();
    const rnd = seeded(SEED);
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS && failures.length < 20; i++) {
      const r = hostileRequest(rnd, server.token);
      const res = await fetch(`${server.url}${r.path}`, { method: r.method, headers: r.headers, body: r.body, redirect: "manual" });
      const text = await res.text();
      const what = `#${i} ${r.method} ${r.path.slice(0, 120)} body=${String(r.body).slice(0, 60)} → ${res.status} ${text.slice(0, 160)}`;
      if (res.status >= 500) failures.push(what);
      else if (res.headers.get("x-content-type-options") !== "nosniff") failures.push(`no nosniff: ${what}`);
      // Job logs and results hold what jobs logged: a failing job's traceback, as Nautobot logs it, is their content.
      else if (LEAK.test(text) && !/text\/html/.test(res.headers.get("content-type") ?? "") && !/\/extras\/job-(logs|results)\//.test(r.path)) failures.push(`leak: ${what}`);
    }
    expect(failures).to.deep.equal([]);
    expect(({} as Record<string, unknown>).x, "Object.prototype is untouched").to.equal(undefined);
    const name = uniq("after-sweep");
    expect((await post("/api/tenancy/tenants/", { name, slug: name })).status).to.equal(201);
    expect((await post(`${NS}/tags`, { name })).status).to.equal(201);
  });

  it("malformed percent-escapes in paths and queries are client errors in both APIs", async () => {
    const server = await startTestServer();
    const auth = { Authorization: `Token ${server.token}` };
    const bySlug = await fetch(`${server.url}/wp-json/calendar/events/v1/events/by-slug/%E0%A4%A`);
    expect(bySlug.status).to.equal(400);
    expect(((await bySlug.json()) as { code: string }).code).to.equal("rest_invalid_param");
    for (const path of ["/api/dcim/sites/%E0%A4%A/", "/api/dcim/sites/?name=%E0%A4%A", "/wp-json/calendar/events/v1/events?search=%E0%A4%A"]) {
      const res = await fetch(`${server.url}${path}`, { headers: auth });
      expect(res.status, path).to.be.below(500);
    }
  });
});
