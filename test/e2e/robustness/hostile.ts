// A seeded generator of hostile requests over both APIs: odd and oversized query values,
// bracketed and prototype-named parameters, broken, mistyped and deeply nested bodies, wrong
// content types, bad credentials and Accept headers, odd ids, bulk bodies naming unknown ids.
// Seeded, so a failure reproduces; `make fuzz` runs a long sweep, the suite a slice.
import { apis } from "../../../generated/server.js";

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const WEIRD = ["", " ", "null", "%00", "\u0000", "'", "\"", "\\", "((", "[", "*", "10.0.0.0/33", "::/200", "1e309", "-1",
  "99999999999999999999", "-99999999999", "true", "🙂", "a".repeat(3000), "../..", "1,2", "2024-13-45", "0x10", "NaN", "{}", "[]",
  "fe80::1%eth0/64", "fe80::1%25eth0", "10.0.0.1%lo", "+99999999 years", "9999-12-31 23:59:59", "0000-00-00", "(?<=a", "a{99999}"];
const PATHS = ["/api/dcim/sites/", "/api/ipam/prefixes/", "/api/ipam/ip-addresses/", "/api/tenancy/tenants/", "/api/dcim/regions/",
  "/api/users/tokens/", "/api/users/users/", "/api/extras/tags/", "/api/ipam/vrfs/", "/api/login/", "/api/", "/api/docs/",
  "/wp-json/calendar/events/v1/events", "/wp-json/calendar/events/v1/venues", "/wp-json/calendar/events/v1/categories",
  "/wp-json/calendar/events/v1/organizers", "/wp-json/calendar/events/v1/tags", "/wp-json/calendar/events/v1/events/by-slug/x",
  "/wp-json/", "/wp-json/calendar/events/v1", "/wp-json/wp/v2/users/me/application-passwords"];
const PARAMS = ["q", "name", "name__re", "name__ire", "slug__n", "id", "id__n", "limit", "offset", "brief", "status", "region", "site",
  "tag", "prefix", "within", "within_include", "contains", "family", "mask_length", "parent", "address", "asn__gte", "created",
  "last_updated", "vrf", "api_version", "format", "page", "per_page", "start_date", "end_date", "search", "categories", "include",
  "geoloc_lat", "geoloc_lng", "venue", "featured", "hide_empty", "order", "orderby", "exclude", "event", "post", "namespace",
  "_method", "_envelope", "starts_after", "tags", "organizer", "status", "slug"];
/** Bracket suffixes: PHP-style nesting, prototype names, absurd list positions. */
const BRACKETS = ["[]", "[a]", "[0]", "[a][b]", "[__proto__][x]", "[constructor][prototype][x]", "[prototype]", "[99999999][a]", "[][]"];
const nest = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
const BODIES = [undefined, "", "{", "[]", "[1]", "null", "1", "\"x\"", "{\"name\":null}", "{\"name\":{}}",
  "{\"prefix\":\"300.1.1.1/24\",\"status\":\"active\"}", "{\"address\":\"fe80::1%eth0/64\",\"status\":\"active\"}", "{\"tags\":\"x\"}",
  "{\"tags\":[{}]}", "{\"site\":{\"region\":{\"parent\":{}}}}", "[{\"id\":\"x\"}]", "[{\"id\":[\"00000000-0000-4000-8000-000000000000\"]}]",
  "[{\"id\":\"00000000-0000-4000-8000-000000000000\",\"name\":\"x\"}]", "{\"title\":\"x\",\"start_date\":\"garbage\",\"end_date\":\"y\"}",
  "{\"title\":\"x\",\"start_date\":\"-99999999999\"}", "{\"venue\":[[]]}", "{\"categories\":[{\"a\":1}]}", "{\"geo_lng\":[],\"venue\":\"v\"}",
  "{\"custom_fields\":[]}", "{\"custom_fields\":{\"__proto__\":{\"x\":1}}}", "{\"__proto__\":[1],\"name\":\"x\"}", "{\"constructor\":{\"prototype\":{\"x\":1}}}",
  "{\"status\":[\"active\"]}", "{\"asn\":1e400}", JSON.stringify({ name: "\u0000" }), `{"custom_fields":${nest(5000)}}`, nest(3000),
  "__proto__[x]=1", "title=t&venue[__proto__][x]=1", "title=t&venue[a]=1&categories[][name]=c", "name=x&a[99999999][b]=1",
  `title${"[a]".repeat(80)}=1`];

/** A deterministic pseudo-random source (the constants of the classic ANSI C rand). */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Every list route of the DRF-style APIs with its own filter names, so each filter gets hostile values. */
const MODEL_ROUTES = apis.filter((a) => a.profile === "drf").flatMap((a) =>
  a.models.map((m) => ({ path: `${a.basePath}${m.app}/${m.route}/`, params: m.filters.map((f) => f.param) })));

export function hostileRequest(rnd: () => number, token: string): HostileRequest {
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
  const model = rnd() < 0.4 ? pick(MODEL_ROUTES) : undefined;
  let path = model?.path ?? pick(PATHS);
  if (rnd() < 0.2) path += pick(["1/", "00000000-0000-0000-0000-000000000000/", "x/", "999999999", "-1", "%E0%A4%A", "by-slug/%ZZ", "%2e%2e/", "1"]);
  const qs: string[] = [];
  for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
    const param = model && rnd() < 0.8 ? pick(model.params) : pick(PARAMS);
    const name = rnd() < 0.2 ? `${param}${pick(BRACKETS)}` : param;
    qs.push(`${encodeURIComponent(name).replace(/%5B/g, "[").replace(/%5D/g, "]")}=${encodeURIComponent(pick(WEIRD))}`);
  }
  const method = pick(["GET", "GET", "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
  const headers: Record<string, string> = {};
  if (rnd() < 0.85) headers.Authorization = pick([`Token ${token}`, `Token ${token}`, `Token ${token}`, "Token", "Token a b", "Bearer x", "Basic !!!"]);
  const body = method === "GET" || method === "HEAD" ? undefined : pick(BODIES);
  if (body !== undefined) headers["Content-Type"] = pick(["application/json", "application/json", "application/x-www-form-urlencoded", "text/plain"]);
  if (rnd() < 0.1) headers.Accept = pick(["application/json; version=9", "text/html", "application/xml", "*/*;q=0", "application/json; __proto__=x"]);
  if (rnd() < 0.05) headers["X-HTTP-Method-Override"] = pick(["DELETE", "PATCH", "__proto__"]);
  return { method, path: `${path}?${qs.join("&")}`, headers, body };
}

/** Text that must never reach a client: stacks, exception names, SQL, driver messages. */
export const LEAK = /\bat [\w.<>]+ \(|node:internal|\.ts:\d+:\d+|\b(TypeError|ReferenceError|RangeError|SyntaxError)\b|Maximum call stack|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|\bdelete from\b|knex|violates .* constraint|syntax error at or near|invalid input syntax for type/i;
