// The fast path (runtime/http/fast-path.ts, runtime/profiles/drf/fast-routes.ts): the hot reads
// and writes of a model's list and detail routes are answered without Express's routers, and
// every answer is the one Express gives. One app on the shared database is served twice: by
// the site's listener (`listen`: a server made with the site's classes), and by its Express
// app alone; each request goes to both, and the telemetry event the dispatcher publishes says
// which path routed it.
import { expect } from "chai";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apis } from "../../../generated/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { subscribe } from "../../../runtime/telemetry.js";
import { startTestServer } from "../../support/server.js";
import { post } from "../../support/http.js";
import { MISSING_ID, uniq } from "./support.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Whether the fast path routed it; undefined when no profile routed it. */
  fast?: boolean;
}

interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  token?: string | null;
}

const HOST = "fast-path.test";
const inventory = apis.find((a) => a.name === "inventory")!;
const ORIGIN = "https://app.example";
/** What each routed request's id says of its path. */
const routed = new Map<string, boolean>();
subscribe("http.routed", ({ res, fast }) => routed.set(String(res.getHeader("x-request-id")), !!fast));

const servers: Server[] = [];
let fastPort = 0;
let expressPort = 0;
/** The site on a server made without its classes: requests are given the app's prototypes one by one. */
let plainPort = 0;
let token = "";

function send(port: number, path: string, { method = "GET", headers = {}, body, token: key = token }: Sent, id: string): Promise<Answer> {
  const all: Record<string, string> = { Host: HOST, "X-Request-Id": id, ...(key ? { Authorization: `Token ${key}` } : {}), ...headers };
  if (body !== undefined && !Object.keys(all).some((h) => h.toLowerCase() === "content-type")) all["Content-Type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString(), fast: routed.get(id) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The answer with what may differ between two sendings left out: the date, the page's nonce, a write's time. */
function comparable(a: Answer): Omit<Answer, "fast"> {
  const headers = { ...a.headers };
  delete headers.date;
  const policy = headers["content-security-policy"];
  if (typeof policy === "string") headers["content-security-policy"] = policy.replace(/'nonce-[0-9a-f]+'/, "'nonce-…'");
  const body = a.body.replace(/nonce="[0-9a-f]+"/g, 'nonce="…"').replace(/"last_updated":"[^"]+"/g, '"last_updated":"…"');
  return { status: a.status, headers, body };
}

/** The request through both; asserts the answers are equal and gives the fast listener's. */
async function both(path: string, sent: Sent = {}): Promise<Answer> {
  const id = uniq("fast");
  const fast = await send(fastPort, path, sent, id);
  const slow = await send(expressPort, path, sent, id);
  expect(slow.fast, "the Express app never takes the fast path").to.not.equal(true);
  expect(comparable(fast), `${sent.method ?? "GET"} ${path}`).to.deep.equal(comparable(slow));
  return fast;
}

const listening = (server: Server) => new Promise<number>((resolve) => server.once("listening", () => resolve((server.address() as AddressInfo).port)));

before(async () => {
  const shared = await startTestServer();
  token = shared.token;
  const app = createApp(apis, shared.db, { ...configFromEnv(), publicUrl: undefined, logRequests: false, corsOrigins: [ORIGIN], bodyLimit: "2kb" });
  const fast = app.listen(0, "127.0.0.1");
  const express = http.createServer(app.express).listen(0, "127.0.0.1");
  const plain = http.createServer(app).listen(0, "127.0.0.1");
  servers.push(fast, express, plain);
  [fastPort, expressPort, plainPort] = await Promise.all([listening(fast), listening(express), listening(plain)]);
});

after(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("the fast path", () => {
  let site: { id: string };
  const SITES = "/api/dcim/sites/";

  before(async () => {
    const res = await post(SITES, { name: uniq("fast-site"), slug: uniq("fast-site"), status: "active" });
    expect(res.status, res.text).to.equal(201);
    site = res.body;
  });

  it("answers reads of a list or a detail, in every form, as Express does", async () => {
    const detail = await both(`${SITES}${site.id}/`);
    expect(detail.status).to.equal(200);
    expect(JSON.parse(detail.body)).to.include({ id: site.id });
    for (const path of [`${SITES}${site.id}/?brief=1`, `${SITES}?limit=2&offset=1`, `${SITES}?brief=true&limit=3`, `${SITES}?format=json`,
      `${SITES}?api_version=${inventory.versions.default}`, `${SITES}${MISSING_ID}/`, `${SITES}?no_such_filter=1`]) {
      const res = await both(path);
      expect(res.fast, path).to.equal(true);
    }
    const head = await both(`${SITES}${site.id}/`, { method: "HEAD" });
    expect(head).to.include({ status: 200, body: "", fast: true });
    expect(detail.fast).to.equal(true);
  });

  it("refuses as Express does: no credentials, a bad token, a user without the permission", async () => {
    const { user } = await startTestServer();
    const limited = await user(uniq("fast-user"));
    for (const sent of [{ token: null }, { token: "0".repeat(40) }, { token: limited.key }]) {
      const res = await both(SITES, sent);
      expect(res).to.include({ status: 403, fast: true });
    }
  });

  it("carries the site's headers: request id, security headers, CORS, version, Vary", async () => {
    const res = await both(`${SITES}${site.id}/`, { headers: { Origin: ORIGIN } });
    expect(res.fast).to.equal(true);
    expect(res.headers).to.include({ "access-control-allow-origin": ORIGIN, "x-content-type-options": "nosniff" });
    expect(res.headers["api-version"]).to.be.a("string");
    expect(res.headers["content-security-policy"]).to.match(/nonce-/);
  });

  it("answers writes as Express does, and refuses a malformed or oversized body in DRF's words", async () => {
    for (const port of ["fast", "express"]) {
      const slug = uniq(`fast-${port}`);
      const id = uniq("fast");
      const created = await send(port === "fast" ? fastPort : expressPort, SITES, { method: "POST", body: JSON.stringify({ name: slug, slug, status: "active" }) }, id);
      expect(created.status, created.body).to.equal(201);
      expect(created.fast).to.equal(port === "fast" ? true : false);
      const made = JSON.parse(created.body) as { id: string };
      const patched = await both(`${SITES}${made.id}/`, { method: "PATCH", body: JSON.stringify({ description: "same either way" }) });
      expect(patched).to.include({ status: 200, fast: true });
      const put = await send(fastPort, `${SITES}${made.id}/`, { method: "PUT", body: JSON.stringify({ name: slug, slug, status: "planned" }) }, uniq("fast"));
      expect(put).to.include({ status: 200, fast: true });
      const gone = await send(fastPort, `${SITES}${made.id}/`, { method: "DELETE" }, uniq("fast"));
      expect(gone).to.include({ status: 204, fast: true });
    }
    const malformed = await both(SITES, { method: "POST", body: '{"name": ' });
    expect(malformed).to.include({ status: 400, fast: true });
    expect(JSON.parse(malformed.body).detail).to.match(/^JSON parse error/);
    // Refused by the body parser, before anything is routed: on either path no route is told.
    const oversized = await both(SITES, { method: "POST", body: JSON.stringify({ name: "x".repeat(4096) }) });
    expect(oversized.status).to.equal(413);
    expect(JSON.parse(oversized.body)).to.have.property("detail");
    const deleted = await both(`${SITES}${MISSING_ID}/`, { method: "DELETE" });
    expect(deleted).to.include({ status: 404, fast: true });
  });

  it("takes the fast path on a server made without the site's classes too", async () => {
    const id = uniq("fast");
    const plain = await send(plainPort, `${SITES}${site.id}/`, {}, id);
    const slow = await send(expressPort, `${SITES}${site.id}/`, {}, id);
    expect(plain.fast).to.equal(true);
    expect(comparable(plain)).to.deep.equal(comparable(slow));
  });

  it("routes an absolute-form target as its path", async () => {
    const res = await both(`http://${HOST}${SITES}${site.id}/`);
    expect(res).to.include({ status: 200, fast: true });
  });

  it("leaves pages, preflights, redirects, other routes and the site's own paths to Express, answering as it does", async () => {
    const leftOut: Array<[string, Sent]> = [
      [`${SITES}?format=api`, {}],
      [`${SITES}${site.id}/`, { headers: { Accept: "text/html" } }],
      [SITES, { method: "OPTIONS", headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST" } }],
      [SITES, { method: "OPTIONS" }],
      ["/api/dcim/sites", {}],
      ["/api", {}],
      ["/api/", {}],
      ["/api/status/", {}],
      ["/api/dcim/no-such-things/", {}],
      ["/health/live/", {}],
    ];
    for (const [path, sent] of leftOut) {
      const res = await both(path, sent);
      expect(res.fast, `${sent.method ?? "GET"} ${path}`).to.not.equal(true);
    }
  });
});

describe("the fast path of the WordPress profile", () => {
  const NS = "/wp-json/calendar/events/v1";
  const reader = { token: null };

  it("answers reads of the API's paths as Express does, failures included", async () => {
    for (const path of [`${NS}/events`, `${NS}/events/`, `${NS}/events?per_page=2&page=1`, `${NS}/venues`, `${NS}/organizers`, `${NS}/categories?hide_empty=0`,
      `${NS}/tags`, NS, "/wp-json/", `${NS}/events?page=0`, `${NS}/events?per_page=x`, `${NS}/events/${MISSING_ID}`, `${NS}/no-such-route`]) {
      const res = await both(path, reader);
      expect(res.fast, path).to.equal(true);
    }
    const list = await both(`${NS}/events?per_page=1`, reader);
    expect(list.status, list.body).to.equal(200);
    expect(list.headers).to.have.property("x-wp-total");
    expect(JSON.parse(list.body)).to.have.property("events");
    const head = await both(`${NS}/events`, { ...reader, method: "HEAD" });
    expect(head).to.include({ status: 200, body: "", fast: true });
    expect(head.headers["x-wp-total"], "an archive's HEAD has its GET's headers").to.equal(list.headers["x-wp-total"]);
    // Refused before it is routed: on either path no route is told, and the answers are equal.
    const bad = await both(`${NS}/events`, { headers: { Authorization: "Basic bm9ib2R5Om5vdGhpbmc=" }, token: null });
    expect(bad.status).to.equal(401);
  });

  it("leaves writes, Swagger UI's files and paths no API claims to Express, answering as it does", async () => {
    const leftOut: Array<[string, Sent]> = [
      [`${NS}/events`, { ...reader, method: "POST", body: JSON.stringify({ title: "no one may" }) }],
      [`${NS}/doc/static/swagger-ui.css`, reader],
      [`${NS}/doc/static`, reader],
      ["/wp-json/no/such/namespace", reader],
      ["/wp-json", reader],
    ];
    for (const [path, sent] of leftOut) {
      const res = await both(path, sent);
      expect(res.fast, `${sent.method ?? "GET"} ${path}`).to.not.equal(true);
    }
  });
});
