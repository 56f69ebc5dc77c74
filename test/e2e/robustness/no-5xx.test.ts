// "A 5xx is a bug": a seeded, bounded sweep of hostile requests over both APIs (odd query
// values, broken and mistyped bodies, wrong content types, bad credentials and Accept
// headers, odd ids). Every reply must be below 500. Seeded, so a failure reproduces.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";

const WEIRD = ["", " ", "null", "%00", "\u0000", "'", "\"", "\\", "((", "[", "*", "10.0.0.0/33", "::/200", "1e309", "-1",
  "99999999999999999999", "true", "🙂", "a".repeat(3000), "../..", "1,2", "2024-13-45", "0x10", "NaN", "{}", "[]"];
const PATHS = ["/api/dcim/sites/", "/api/ipam/prefixes/", "/api/ipam/ip-addresses/", "/api/tenancy/tenants/", "/api/dcim/regions/",
  "/api/users/tokens/", "/api/users/users/", "/api/extras/tags/", "/api/ipam/vrfs/", "/wp-json/calendar/events/v1/events",
  "/wp-json/calendar/events/v1/venues", "/wp-json/calendar/events/v1/categories", "/wp-json/calendar/events/v1/organizers",
  "/wp-json/calendar/events/v1/events/by-slug/x", "/wp-json/"];
const PARAMS = ["q", "name", "name__re", "name__ire", "slug__n", "id", "id__n", "limit", "offset", "brief", "status", "region", "site",
  "tag", "prefix", "within", "contains", "family", "mask_length", "parent", "address", "asn__gte", "created", "last_updated", "vrf",
  "api_version", "format", "page", "per_page", "start_date", "end_date", "search", "categories", "include", "geoloc_lat",
  "geoloc_lng", "venue", "featured", "hide_empty", "order", "orderby", "exclude", "event", "post"];
const BODIES = [undefined, "", "{", "[]", "[1]", "null", "1", "\"x\"", "{\"name\":null}", "{\"name\":{}}",
  "{\"prefix\":\"300.1.1.1/24\",\"status\":\"active\"}", "{\"tags\":\"x\"}", "{\"tags\":[{}]}", "{\"site\":{\"region\":{\"parent\":{}}}}",
  "[{\"id\":\"x\"}]", "{\"title\":\"x\",\"start_date\":\"garbage\",\"end_date\":\"y\"}", "{\"venue\":[[]]}", "{\"categories\":[{\"a\":1}]}",
  "{\"custom_fields\":[]}", "{\"status\":[\"active\"]}", "{\"asn\":1e400}", JSON.stringify({ name: "\u0000" })];
const REQUESTS = 2000;

describe("robustness: no 5xx for hostile input", () => {
  it(`${REQUESTS} seeded hostile requests over both APIs all get a reply below 500`, async function () {
    this.timeout(120000);
    const server = await startTestServer();
    let seed = 20261121;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      let path = pick(PATHS);
      if (rnd() < 0.2) path += pick(["1/", "00000000-0000-0000-0000-000000000000/", "x/", "999999999", "-1", "%E0%A4%A", "by-slug/%ZZ", "%2e%2e/"]);
      const qs = new URLSearchParams();
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) qs.append(pick(PARAMS), pick(WEIRD));
      const method = pick(["GET", "GET", "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
      const headers: Record<string, string> = {};
      if (rnd() < 0.85) headers.Authorization = pick([`Token ${server.token}`, `Token ${server.token}`, "Token", "Token a b", "Bearer x", "Basic !!!"]);
      const body = method === "GET" || method === "HEAD" ? undefined : pick(BODIES);
      if (body !== undefined) headers["Content-Type"] = pick(["application/json", "application/json", "application/x-www-form-urlencoded", "text/plain"]);
      if (rnd() < 0.1) headers.Accept = pick(["application/json; version=9", "text/html", "application/xml", "*/*;q=0"]);
      const res = await fetch(`${server.url}${path}?${qs}`, { method, headers, body, redirect: "manual" });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${res.status} ${method} ${path}?${qs.toString().slice(0, 100)} body=${String(body).slice(0, 60)} → ${text.slice(0, 120)}`);
    }
    expect(failures).to.deep.equal([]);
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
