// The shared parser policy, end to end: prototype keys in every parser (query strings, form
// bodies, JSON bodies) are refused and leave the server serving; nesting is bounded before
// any recursive walk; requests Node's own HTTP parser refuses still get a body in the error
// format of the API they were sent to.
import { expect } from "chai";
import { connect, type AddressInfo } from "node:net";
import { httpServer } from "../../../runtime/cli.js";
import { configFromEnv } from "../../../runtime/config.js";
import { apis } from "../../../generated/server.js";
import { startTestServer } from "../../support/server.js";
import { call, get, post } from "../../support/http.js";
import { NS } from "../calendar/support.js";
import { uniq, rows } from "../inventory/support.js";

const TENANTS = "/api/tenancy/tenants/";

/** A normal write in each API must still work: a request that broke the server fails here. */
async function writesStillWork(): Promise<void> {
  const name = uniq("after-hostile");
  const tenant = await post(TENANTS, { name, slug: name });
  expect(tenant.status, tenant.text).to.equal(201);
  const tag = await post(`${NS}/tags`, { name });
  expect(tag.status, tag.text).to.equal(201);
  expect(({} as Record<string, unknown>).x).to.equal(undefined);
}

/** Sends raw bytes on a fresh socket; gives the whole reply as text. */
async function rawRequest(bytes: Buffer | string): Promise<string> {
  const { url } = await startTestServer();
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), "127.0.0.1", () => socket.end(bytes));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function replyParts(reply: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = reply.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join("\r\n\r\n")) };
}

describe("robustness: one parser policy for every request", () => {
  describe("prototype keys", () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };

    it("form bodies naming __proto__, constructor or prototype are 400 rest_invalid_param, anonymous or not, and change nothing", async () => {
      const before = await rows("events_tag");
      for (const body of ["__proto__[x]=1", "title=t&venue[__proto__][x]=1", "name=n&constructor[prototype][x]=1", "a[prototype]=1"]) {
        for (const token of [null, undefined]) {
          const res = await call("POST", `${NS}/tags`, { body, raw: true, headers: form, token });
          expect(res.status, body).to.be.oneOf([400, 401]);
          if (token === undefined) {
            expect(res.status, body).to.equal(400);
            expect(res.body.code).to.equal("rest_invalid_param");
          }
        }
      }
      expect(await rows("events_tag")).to.equal(before);
      await writesStillWork();
    });

    it("query strings naming prototype keys are 400 in the calendar API and unknown filters in the inventory API", async () => {
      for (const qs of ["categories[__proto__][x]=1", "__proto__[x]=1", "constructor[prototype][x]=1", "search[constructor]=1"]) {
        const res = await call("GET", `${NS}/events?${qs}`, { token: null });
        expect(res.status, qs).to.equal(400);
        expect(res.body.code).to.equal("rest_invalid_param");
      }
      const drf = await get(`${TENANTS}?__proto__=1&constructor=2`);
      expect(drf.status).to.equal(400);
      expect(drf.body).to.deep.equal(JSON.parse('{"__proto__":["Unknown filter field"],"constructor":["Unknown filter field"]}'));
      await writesStillWork();
    });

    it("a JSON body with a __proto__ key at any depth is 400 in both APIs and creates nothing", async () => {
      const name = uniq("proto-json");
      for (const text of [`{"name":"${name}","slug":"${name}","__proto__":[1]}`, `{"name":"${name}","slug":"${name}","custom_fields":{"__proto__":{"x":1}}}`]) {
        const res = await call("POST", TENANTS, { body: text, raw: true });
        expect(res.status, text).to.equal(400);
        expect(JSON.stringify(res.body)).to.include("__proto__");
      }
      expect(await rows("tenancy_tenant", { name })).to.equal(0);
      const wp = await call("POST", `${NS}/tags`, { body: `{"name":"${name}","__proto__":{"x":1}}`, raw: true });
      expect(wp.status).to.equal(400);
      expect(wp.body.code).to.equal("rest_invalid_param");
      expect(await rows("events_tag", { name })).to.equal(0);
      await writesStillWork();
    });

    it("bracketed values are plain data: an object where a scalar is expected is a 400, not a crash", async () => {
      for (const qs of ["page[a]=1", "per_page[a]=1", "start_date[x]=1", "search[a]=1", "venue[a]=1", "categories[a][b]=1", "featured[a]=1"]) {
        const res = await call("GET", `${NS}/events?${qs}`, { token: null });
        expect(res.status, `${qs}: ${res.text}`).to.be.within(400, 499);
      }
      const ns = await call("GET", `${NS}?namespace[a]=1`, { token: null });
      expect(ns.status).to.equal(404);
    });

    it("a list position far beyond the list is refused rather than allocated", async () => {
      const res = await call("POST", `${NS}/tags`, { body: "name=x&a[]=1&a[99999999][b]=2", raw: true, headers: form });
      expect(res.status).to.equal(400);
      expect(res.body.data.params).to.have.key("a");
    });
  });

  describe("nesting depth", () => {
    const deep = (n: number, inner = "1") => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;

    it("JSON nested 10,000 levels is a 400 in the inventory API (custom_fields included), nothing created", async () => {
      const name = uniq("deep");
      for (const text of [`{"name":"${name}","slug":"${name}","custom_fields":${deep(10000)}}`, deep(100000)]) {
        const res = await call("POST", TENANTS, { body: text, raw: true });
        expect(res.status).to.equal(400);
        expect(res.body.detail).to.match(/^JSON parse error - Nesting deeper than 64 levels/);
      }
      expect(await rows("tenancy_tenant", { name })).to.equal(0);
    });

    it("JSON nested 5,000 levels is a 400 in the calendar API", async () => {
      const res = await call("POST", `${NS}/events`, { body: `{"title":${deep(5000)}}`, raw: true });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal("rest_invalid_param");
    });

    it("form keys nested beyond the limit are a 400; 64 levels of JSON are still accepted as data", async () => {
      const key = `title${"[a]".repeat(70)}`;
      const res = await call("POST", `${NS}/tags`, { body: `${key}=1`, raw: true, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      expect(res.status).to.equal(400);
      const name = uniq("deep-ok");
      const ok = await post(TENANTS, { name, slug: name, description: "x" });
      expect(ok.status).to.equal(201);
      const within = await call("PATCH", `${TENANTS}${ok.body.id}/`, { body: `{"description":"y","custom_fields":${deep(60, "{}")}}`, raw: true });
      expect(within.status, "depth within the limit reaches validation").to.equal(400);
      expect(within.body).to.have.key("custom_fields");
    });

    it("malformed JSON says where it failed in DRF's words, and the calendar in WordPress's", async () => {
      const res = await call("POST", TENANTS, { body: '{"name": "x",\n "slug": }', raw: true });
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.match(/^JSON parse error - Invalid JSON: line 2 column \d+ \(char \d+\)$/);
      const empty = await call("POST", TENANTS, { body: " ", raw: true });
      expect(empty.body.detail).to.match(/^JSON parse error - Expecting value: line 1 column \d+/);
      const wp = await call("POST", `${NS}/tags`, { body: "{", raw: true });
      expect(wp.status).to.equal(400);
      expect(wp.body.code).to.equal("rest_invalid_json");
    });
  });

  describe("requests Node's parser refuses", () => {
    it("raw control bytes in the request line: 400 in the API's own format, with nosniff", async () => {
      const drf = replyParts(await rawRequest(Buffer.from("GET /api/\x01\x02 HTTP/1.1\r\nHost: x\r\n\r\n", "latin1")));
      expect(drf.status).to.equal(400);
      expect(drf.body).to.deep.equal({ detail: "The request could not be parsed." });
      expect(drf.headers).to.include("x-content-type-options: nosniff");
      const wp = replyParts(await rawRequest(Buffer.from("GET /wp-json/calendar/\x7f HTTP/1.1\r\nHost: x\r\n\r\n", "latin1")));
      expect(wp.status).to.equal(400);
      expect(wp.body).to.deep.include({ code: "rest_invalid_request" });
      expect(wp.body.data).to.deep.equal({ status: 400 });
    });

    it("a URL over 16 KB or a thousand query parameters: 431 with a body", async () => {
      const { url } = await startTestServer();
      const long = await fetch(`${url}/api/dcim/sites/?q=${"a".repeat(17000)}`);
      expect(long.status).to.equal(431);
      expect(await long.json()).to.deep.equal({ detail: "The request's headers or URL are too large." });
      const params = (n: number, value: string) => Array.from({ length: n }, (_, i) => `p${i}=${value}`).join("&");
      const wp = await fetch(`${url}${NS}/events?${params(1000, "v".repeat(20))}`);
      expect(wp.status).to.equal(431);
      expect(((await wp.json()) as { code: string }).code).to.equal("rest_request_too_large");
      // Within the size limit, many parameters are just unknown ones, which WordPress ignores.
      const fits = await fetch(`${url}${NS}/events?${params(1000, "v")}`);
      expect(fits.status).to.equal(200);
    });

    it("a malformed header is a 400 with a body, and the server keeps serving", async () => {
      const reply = replyParts(await rawRequest("GET /api/ HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"));
      expect(reply.status).to.equal(400);
      expect(reply.body).to.have.key("detail");
      await writesStillWork();
    });
  });
});

describe("robustness: slow clients", () => {
  it("one sending its headers a byte at a time is cut off at HEADERS_TIMEOUT, before it is done, while others are served", async function () {
    this.timeout(120_000);
    const { db } = await startTestServer();
    const config = { ...configFromEnv(), dataDir: "memory://", logRequests: false, keepAliveTimeout: 1, headersTimeout: 2, requestTimeout: 4 };
    const server = httpServer(apis, { knex: db, embedded: !process.env.DATABASE_URL, close: async () => undefined }, config);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      // Each would take 40 s to send its headers: a line every half second.
      const slow = Array.from({ length: 8 }, () => new Promise<{ reply: string; lines: number }>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1");
        let reply = "";
        let lines = 0;
        const drip = setInterval(() => {
          if (lines++ === 0) socket.write("GET /api/ HTTP/1.1\r\nHost: x\r\n");
          else if (lines < 80) socket.write(`X-Slow-${lines}: y\r\n`);
        }, 500);
        socket.on("data", (d: Buffer) => (reply += d.toString("utf8")));
        socket.on("error", () => undefined);
        socket.on("close", () => { clearInterval(drip); resolve({ reply, lines }); });
        setTimeout(() => reject(new Error("still connected after 60 s")), 60_000).unref();
      }));
      const meanwhile = await fetch(`http://127.0.0.1:${port}/api/`, { headers: { Authorization: `Token ${(await startTestServer()).token}` } });
      expect(meanwhile.status).to.equal(200);
      for (const { reply, lines } of await Promise.all(slow)) {
        expect(lines, "header lines sent before the server closed").to.be.below(80);
        expect(reply).to.match(/^HTTP\/1\.1 408 /);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("one sending its body a byte at a time is cut off at REQUEST_TIMEOUT, before it is done, while others are served", async function () {
    this.timeout(120_000);
    const { db, token } = await startTestServer();
    // The lowest the server allows (no less than the headers timeout): the test waits it out,
    // and headers sent whole leave only the request timeout to cut the body off.
    const config = { ...configFromEnv(), dataDir: "memory://", logRequests: false, keepAliveTimeout: 1, headersTimeout: 2, requestTimeout: 2 };
    const server = httpServer(apis, { knex: db, embedded: !process.env.DATABASE_URL, close: async () => undefined }, config);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    const name = uniq("slow-body");
    const body = JSON.stringify({ name, slug: name }).padEnd(80, " ");
    try {
      // Headers at once, then a body that would take 40 s: a byte every half second.
      const slow = Array.from({ length: 8 }, () => new Promise<{ reply: string; sent: number }>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1");
        let reply = "";
        let sent = 0;
        socket.write(`POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
        const drip = setInterval(() => {
          if (sent < body.length) socket.write(body[sent++]);
        }, 500);
        socket.on("data", (d: Buffer) => (reply += d.toString("utf8")));
        socket.on("error", () => undefined);
        socket.on("close", () => { clearInterval(drip); resolve({ reply, sent }); });
        setTimeout(() => reject(new Error("still connected after 60 s")), 60_000).unref();
      }));
      const meanwhile = await fetch(`http://127.0.0.1:${port}/api/`, { headers: { Authorization: `Token ${token}` } });
      expect(meanwhile.status).to.equal(200);
      for (const { reply, sent } of await Promise.all(slow)) {
        expect(sent, "body bytes sent before the server closed").to.be.below(body.length);
        expect(reply).to.match(/^HTTP\/1\.1 408 /);
      }
      expect(await rows("tenancy_tenant", { name }), "nothing written from a cut-off body").to.equal(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
