// Throttling of failed passwords, on app instances of their own with a low limit over the
// shared test database: the login form, token provisioning by HTTP Basic and the calendar's
// application passwords count together per username from one client address and per client
// address (never per username alone, which anyone could use against any user), a throttled
// attempt is 429 with Retry-After even with the right password, and the counts live in the
// database. Each test uses its own usernames and its own client addresses (X-Forwarded-For,
// trusted from loopback), so it cannot disturb the shared server or another test.
import { expect } from "chai";
import { createHash } from "node:crypto";
import http from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../../runtime/config.js";
import { createApp } from "../../runtime/server.js";
import { apis } from "../../generated/server.js";
import { startTestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const LIMIT = 3;
const WINDOW = 300;
const NS = "/wp-json/calendar/events/v1";

const servers: Server[] = [];

/** Starts another app instance on the shared database; gives its base URL. */
async function instance(limits: { authFailureLimit?: number; authFailureWindow?: number } = {}): Promise<string> {
  const { db } = await startTestServer();
  const config = { ...configFromEnv(), publicUrl: undefined, logRequests: false, authFailureLimit: LIMIT, authFailureWindow: WINDOW, ...limits };
  const app = createApp(apis, db, config);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let lastAddress = 0;
/** A client address no other test uses (TEST-NET-3). */
const address = () => `203.0.113.${++lastAddress}`;

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const digest = (value: string) => createHash("sha256").update(value).digest("hex");

interface Reply { status: number; retryAfter: string | null; body: any; text: string; cookie: string | null }

async function send(url: string, init: RequestInit & { headers: Record<string, string> }): Promise<Reply> {
  const res = await fetch(url, { ...init, redirect: "manual" });
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* an HTML page */ }
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body, text, cookie: res.headers.get("set-cookie") };
}

const loginForm = (base: string, from: string, username: string, password: string) => send(`${base}/api/login/`, {
  method: "POST", body: new URLSearchParams({ username, password }).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": from },
});
const provisionToken = (base: string, from: string, username: string, password: string) => send(`${base}/api/users/tokens/`, {
  method: "POST", headers: { Authorization: basic(username, password), "X-Forwarded-For": from },
});
const calendar = (base: string, from: string, username: string, password: string) => send(`${base}${NS}/events`, {
  headers: { Authorization: basic(username, password), "X-Forwarded-For": from },
});

/** A user of the shared server with an application password; gives the user's name, password and application password. */
async function person(prefix: string): Promise<{ name: string; password: string; appPassword: string }> {
  const server = await startTestServer();
  const name = uniq(prefix);
  const { key } = await server.user(name);
  const made = await fetch(`${server.url}/wp-json/wp/v2/users/me/application-passwords`, {
    method: "POST", headers: { Authorization: `Token ${key}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: "throttle" }),
  });
  if (made.status !== 201) throw new Error(`application password for ${name}: ${made.status}`);
  return { name, password: `${name}-password`, appPassword: ((await made.json()) as { password: string }).password };
}

/** The key failures of `username` from `address` are counted under. */
const attemptKey = (username: string, address: string) => digest(`${digest(username)}:${address}`);

async function failures(where: { username?: string; address: string }): Promise<number> {
  const { db } = await startTestServer();
  const q = db("armature_auth_failures").where("address_key", digest(where.address));
  if (where.username !== undefined) q.where("attempt_key", attemptKey(where.username, where.address));
  return Number((await q.count({ n: "*" }).first())!.n);
}

async function tokensOf(username: string): Promise<number> {
  const { db } = await startTestServer();
  const r = await db("users_token as t").join("users_user as u", "u.id", "t.user_id").where("u.username", username).count({ n: "*" }).first();
  return Number(r!.n);
}

function expectRetryAfter(reply: Reply, max = WINDOW): number {
  expect(reply.retryAfter, "Retry-After").to.match(/^\d+$/);
  const seconds = Number(reply.retryAfter);
  expect(seconds).to.be.within(1, max);
  return seconds;
}

describe("throttling of failed passwords", () => {
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("after the limit of wrong passwords for a user, the login form, Basic token provisioning and calendar Basic answer 429, even to the right password", async () => {
    const base = await instance();
    const victim = await person("throttled");
    const from = address();
    expect((await loginForm(base, from, victim.name, "wrong")).status).to.equal(403);
    expect((await provisionToken(base, from, victim.name, "wrong")).status).to.equal(403);
    expect((await calendar(base, from, victim.name, "wrong")).status).to.equal(401);
    expect(await failures({ username: victim.name, address: from })).to.equal(LIMIT);
    const tokensBefore = await tokensOf(victim.name);

    const form = await loginForm(base, from, victim.name, victim.password);
    expect(form.status).to.equal(429);
    expectRetryAfter(form);
    expect(form.text).to.include("<form").and.include("Too many failed login attempts for this user or from this address. Try again in");
    expect(form.cookie).to.equal(null);

    const provision = await provisionToken(base, from, victim.name, victim.password);
    expect(provision.status).to.equal(429);
    const wait = expectRetryAfter(provision);
    expect(provision.body).to.deep.equal({ detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? "" : "s"}.` });

    const cal = await calendar(base, from, victim.name, victim.appPassword);
    expect(cal.status).to.equal(429);
    const calWait = expectRetryAfter(cal);
    expect(cal.body).to.deep.equal({
      code: "rest_too_many_requests",
      message: `Too many failed login attempts for this user or from this address. Try again in ${calWait} second${calWait === 1 ? "" : "s"}.`,
      data: { status: 429 },
    });

    // Refused attempts are not tried and not counted, and nothing was issued.
    expect((await loginForm(base, from, victim.name, "still wrong")).status).to.equal(429);
    expect(await failures({ username: victim.name, address: from })).to.equal(LIMIT);
    expect(await tokensOf(victim.name)).to.equal(tokensBefore);
    // The limit is per user and address: the user from elsewhere is not held off by them.
    expect((await provisionToken(base, address(), victim.name, victim.password)).status).to.equal(201);

    const bystander = await person("bystander");
    const elsewhere = address();
    expect((await provisionToken(base, elsewhere, bystander.name, bystander.password)).status).to.equal(201);
    expect((await loginForm(base, elsewhere, bystander.name, bystander.password)).status).to.equal(302);
    expect((await calendar(base, elsewhere, bystander.name, bystander.appPassword)).status).to.equal(200);
    expect(await failures({ username: bystander.name, address: elsewhere }), "successes are not counted").to.equal(0);
  });

  it("after the limit of wrong passwords from an address, any user from that address is refused, unknown usernames included", async () => {
    const base = await instance();
    const from = address();
    for (let i = 0; i < LIMIT; i++) {
      expect((await provisionToken(base, from, uniq("nobody"), "guess")).status).to.equal(403);
    }
    expect(await failures({ address: from })).to.equal(LIMIT);
    const user = await person("neighbour");
    const refused = await loginForm(base, from, user.name, user.password);
    expect(refused.status).to.equal(429);
    expectRetryAfter(refused);
    expect((await calendar(base, from, user.name, user.appPassword)).status).to.equal(429);
    expect((await provisionToken(base, address(), user.name, user.password)).status).to.equal(201);
  });

  it("a second instance on the same database sees the same counts", async () => {
    const first = await instance();
    const second = await instance();
    const user = await person("shared");
    const from = address();
    expect((await provisionToken(first, from, user.name, "wrong")).status).to.equal(403);
    expect((await loginForm(second, from, user.name, "wrong")).status).to.equal(403);
    expect((await calendar(first, from, user.name, "wrong")).status).to.equal(401);
    expect((await provisionToken(second, from, user.name, user.password)).status).to.equal(429);
    expect((await loginForm(first, from, user.name, user.password)).status).to.equal(429);
  });

  it("failures older than the window do not count and are pruned; Retry-After is when the oldest blocking failure leaves the window", async () => {
    const base = await instance();
    const { db } = await startTestServer();
    const user = await person("stale");
    const from = address();
    const aged = (seconds: number) => ({ attempt_key: attemptKey(user.name, from), address_key: digest(from), at: db.raw(`now() - interval '${seconds} seconds'`) });
    await db("armature_auth_failures").insert(Array.from({ length: LIMIT }, () => aged(WINDOW + 10)));
    expect((await provisionToken(base, from, user.name, user.password)).status).to.equal(201);
    expect(await failures({ username: user.name, address: from }), "pruned").to.equal(0);

    await db("armature_auth_failures").insert([aged(WINDOW - 60), ...Array.from({ length: LIMIT - 2 }, () => aged(30))]);
    expect((await loginForm(base, from, user.name, user.password)).status, "one below the limit").to.equal(302);
    expect((await loginForm(base, from, user.name, "wrong")).status).to.equal(403);
    const refused = await provisionToken(base, from, user.name, user.password);
    expect(refused.status).to.equal(429);
    expect(Number(refused.retryAfter)).to.be.within(58, 61);
  });

  it("a limit or a window of 0 turns throttling off", async () => {
    for (const limits of [{ authFailureLimit: 0 }, { authFailureWindow: 0 }]) {
      const base = await instance(limits);
      const user = await person("unlimited");
      const from = address();
      for (let i = 0; i < LIMIT * 2; i++) expect((await provisionToken(base, from, user.name, "wrong")).status).to.equal(403);
      expect((await provisionToken(base, from, user.name, user.password)).status, JSON.stringify(limits)).to.equal(201);
      expect(await failures({ username: user.name, address: from })).to.equal(0);
    }
  });

  it("token keys are not throttled: wrong keys stay 403 and a right key still works", async () => {
    const base = await instance();
    const server = await startTestServer();
    const from = address();
    for (let i = 0; i < LIMIT * 2; i++) {
      const wrong = await send(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${"0".repeat(39)}${i}`, "X-Forwarded-For": from } });
      expect(wrong.status).to.equal(403);
      expect(wrong.body).to.deep.equal({ detail: "Invalid token" });
    }
    expect((await send(`${base}/api/dcim/sites/`, { headers: { Authorization: `Token ${server.token}`, "X-Forwarded-For": from } })).status).to.equal(200);
    expect(await failures({ address: from })).to.equal(0);
  });

  it("from two loopback addresses: wrong passwords sent from one hold that address off, not the user's own logins from the other", async () => {
    const base = await instance();
    const victim = await person("targeted");
    const { port } = new URL(base);
    // Real client addresses, not forwarded ones: sockets bound to loopback addresses of their
    // own (127.0.0.1 is every other test's, whose failures count against it too).
    const [attacker, own] = ["127.0.0.2", "127.0.0.3"];
    const from = (localAddress: string, password: string) => new Promise<number>((resolve, reject) => {
      http.request({ host: "127.0.0.1", port, path: "/api/users/tokens/", method: "POST", localAddress, headers: { Authorization: basic(victim.name, password) } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      }).on("error", reject).end();
    });
    for (let i = 0; i < LIMIT; i++) expect(await from(attacker, "wrong")).to.equal(403);
    expect(await from(attacker, victim.password), "the attacking address, right password or not").to.equal(429);
    expect(await from(own, victim.password), "the user from their own address").to.equal(201);
    expect(await failures({ username: victim.name, address: attacker })).to.equal(LIMIT);
    expect(await failures({ username: victim.name, address: own })).to.equal(0);
  });
});
