// What every reply carries: security headers (and a content-security policy that still lets
// the HTML pages work), a request id, the configured CORS policy; and what a server failure
// shows the client: the request id and nothing of the exception.
import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import knex from "knex";
import { createApp } from "../../../runtime/server.js";
import { configFromEnv, type Config } from "../../../runtime/config.js";
import { apis } from "../../../generated/server.js";
import { startTestServer } from "../../support/server.js";
import { call, get } from "../../support/http.js";
import { NS } from "../calendar/support.js";

async function serve(config: Partial<Config>, db = startTestServer().then((s) => s.db)): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createApp(apis, await db, { ...configFromEnv(), dataDir: "memory://", logRequests: false, ...config });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("robustness: headers on every reply", () => {
  const PATHS = ["/", "/api/", "/api/dcim/sites/", "/api/nowhere/", "/api/docs/", "/api/login/", "/api/docs/static/swagger-ui.css",
    `${NS}/events`, `${NS}/events/999999`, "/wp-json/", "/elsewhere"];

  it("nosniff, frame denial, a referrer policy and a request id, on JSON, HTML, static and error replies", async () => {
    for (const path of PATHS) {
      const res = await get(path);
      expect(res.headers.get("x-content-type-options"), path).to.equal("nosniff");
      expect(res.headers.get("x-frame-options"), path).to.equal("DENY");
      expect(res.headers.get("referrer-policy"), path).to.equal("same-origin");
      expect(res.headers.get("x-request-id"), path).to.match(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("content-security-policy"), path).to.include("frame-ancestors 'none'");
    }
  });

  it("HTML pages get a policy that allows only this server's scripts and the page's own nonced inline script", async () => {
    for (const path of ["/api/", "/api/dcim/sites/", "/api/docs/", "/api/login/"]) {
      const res = await call("GET", path, { headers: { Accept: "text/html" } });
      expect(res.status, path).to.equal(200);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).to.include("default-src 'self'").and.include("object-src 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).to.be.a("string");
      // Every inline script the page has carries the reply's nonce; scripts with a src are same-origin.
      for (const tag of res.text.match(/<script[^>]*>/g) ?? []) {
        if (!/src=/.test(tag)) expect(tag, path).to.include(`nonce="${nonce}"`);
        else expect(tag).to.match(/src="\//);
      }
    }
    const a = await get("/api/docs/");
    const b = await get("/api/docs/");
    expect(a.headers.get("content-security-policy")).to.not.equal(b.headers.get("content-security-policy"));
  });

  it("a caller's plain X-Request-Id is echoed; anything else is replaced", async () => {
    expect((await get("/api/", { headers: { "X-Request-Id": "proxy-abc.123" } })).headers.get("x-request-id")).to.equal("proxy-abc.123");
    expect((await get("/api/", { headers: { "X-Request-Id": "bad id <script>" } })).headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe("robustness: CORS policy", () => {
  it("is off by default: no CORS headers, and a preflight is not approved", async () => {
    const res = await call("GET", "/api/", { headers: { Origin: "https://app.example" } });
    expect(res.headers.get("access-control-allow-origin")).to.equal(null);
    const pre = await call("OPTIONS", "/api/dcim/sites/", { token: null, headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" } });
    expect(pre.headers.get("access-control-allow-origin")).to.equal(null);
  });

  it("with allowed origins configured: preflights approved for them only, replies readable by them, OPTIONS metadata still served", async () => {
    const { token } = await startTestServer();
    const srv = await serve({ corsOrigins: ["https://app.example"] });
    try {
      const preflight = (origin: string, path: string) => fetch(`${srv.url}${path}`, {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "PATCH", "Access-Control-Request-Headers": "authorization, content-type" },
      });
      for (const path of ["/api/dcim/sites/", `${NS}/events`]) {
        const ok = await preflight("https://app.example", path);
        expect(ok.status, path).to.equal(204);
        expect(ok.headers.get("access-control-allow-origin")).to.equal("https://app.example");
        expect(ok.headers.get("access-control-allow-methods")).to.include("PATCH");
        expect(ok.headers.get("access-control-allow-headers")).to.equal("authorization, content-type");
        const refused = await preflight("https://evil.example", path);
        expect(refused.headers.get("access-control-allow-origin"), path).to.equal(null);
      }
      const list = await fetch(`${srv.url}${NS}/events`, { headers: { Origin: "https://app.example" } });
      expect(list.headers.get("access-control-allow-origin")).to.equal("https://app.example");
      expect(list.headers.get("access-control-expose-headers")).to.include("X-WP-Total");
      const meta = await fetch(`${srv.url}/api/dcim/sites/`, { method: "OPTIONS", headers: { Origin: "https://app.example", Authorization: `Token ${token}` } });
      expect(meta.status).to.equal(200);
      expect(((await meta.json()) as { name: string }).name).to.be.a("string");
      expect(meta.headers.get("access-control-allow-origin")).to.equal("https://app.example");
    } finally {
      await srv.close();
    }
  });

  it("`*` allows any origin", async () => {
    const srv = await serve({ corsOrigins: ["*"] });
    try {
      const res = await fetch(`${srv.url}/api/`, { headers: { Origin: "https://anywhere.example" } });
      expect(res.headers.get("access-control-allow-origin")).to.equal("https://anywhere.example");
    } finally {
      await srv.close();
    }
  });
});

describe("robustness: a server failure shows the client an id, never the exception", () => {
  it("5xx bodies in both APIs carry a request id that the server's log line has, with the details kept server-side", async () => {
    const { token } = await startTestServer();
    // A connection that fails in a way no one foresaw makes every request that needs it fail on
    // the server's side (a database merely away is a 503: test/e2e/database-outage.test.ts).
    const broken = knex({ client: "pg", connection: async () => { throw new Error("FAULT-4471: the test's own failure"); }, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2000 });
    const srv = await serve({}, Promise.resolve(broken));
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { logged.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(" ")); };
    try {
      const drf = await fetch(`${srv.url}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } });
      const wp = await fetch(`${srv.url}${NS}/events`);
      expect(drf.status).to.equal(500);
      expect(wp.status).to.equal(500);
      const drfBody = (await drf.json()) as Record<string, unknown>;
      const wpBody = (await wp.json()) as { code: string; data: Record<string, unknown> };
      expect(drfBody).to.deep.equal({ detail: "Internal server error.", request_id: drf.headers.get("x-request-id") });
      expect(wpBody.code).to.equal("rest_internal_error");
      expect(wpBody.data).to.deep.equal({ status: 500, request_id: wp.headers.get("x-request-id") });
      for (const [res, body] of [[drf, drfBody], [wp, wpBody]] as const) {
        const id = res.headers.get("x-request-id")!;
        expect(JSON.stringify(body)).to.not.match(/FAULT-4471|Error:|at .*:\d+:\d+|select |knex/i);
        const line = logged.find((l) => l.includes(id));
        expect(line, `log line for ${id}`).to.be.a("string");
        expect(line).to.include("FAULT-4471");
      }
    } finally {
      console.error = original;
      await srv.close();
      await broken.destroy();
    }
  });
});
