// Token authentication over HTTP: missing, invalid and expired tokens, read-only tokens,
// token provisioning with HTTP Basic, and the rule that users see only their own tokens.
import { expect } from "chai";
import { call, get, post, patch, del } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { row, rows, uniq } from "./support.js";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("inventory e2e: authentication and tokens", () => {
  it("no token → 403 'Authentication credentials were not provided.' on reads and writes", async () => {
    const name = uniq("Tag");
    const list = await get("/api/dcim/sites/", { token: null });
    expect(list.status).to.equal(403);
    expect(list.body).to.deep.equal({ detail: "Authentication credentials were not provided." });
    const write = await post("/api/extras/tags/", { name }, { token: null });
    expect(write.status).to.equal(403);
    expect(await rows("extras_tag", { name })).to.equal(0);
    const status = await get("/api/status/", { token: null });
    expect(status.status).to.equal(403);
    expect(status.body).to.deep.equal({ detail: "Authentication credentials were not provided." });
    const options = await call("OPTIONS", "/api/dcim/sites/", { token: null });
    expect(options.status).to.equal(403);
  });

  it("the API root and app roots are open without a token", async () => {
    expect((await get("/api/", { token: null })).status).to.equal(200);
    expect((await get("/api/dcim/", { token: null })).status).to.equal(200);
  });

  it("an unknown token → 403 'Invalid token', even on the API root", async () => {
    const bad = "0123456789abcdef0123456789abcdef01234567";
    for (const path of ["/api/dcim/sites/", "/api/"]) {
      const res = await get(path, { token: bad });
      expect(res.status, path).to.equal(403);
      expect(res.body).to.deep.equal({ detail: "Invalid token" });
    }
  });

  it("malformed Authorization headers → 403; Bearer is not a token scheme", async () => {
    const empty = await get("/api/dcim/sites/", { token: null, headers: { Authorization: "Token" } });
    expect(empty.status).to.equal(403);
    expect(empty.body).to.deep.equal({ detail: "Invalid token header. No credentials provided." });
    const spaced = await get("/api/dcim/sites/", { token: null, headers: { Authorization: "Token a b" } });
    expect(spaced.body).to.deep.equal({ detail: "Invalid token header. Token string should not contain spaces." });
    const bearer = await get("/api/dcim/sites/", { token: null, headers: { Authorization: `Bearer ${(await startTestServer()).token}` } });
    expect(bearer.status).to.equal(403);
    expect(bearer.body).to.deep.equal({ detail: "Authentication credentials were not provided." });
    const lower = await get("/api/dcim/sites/", { token: null, headers: { Authorization: `token ${(await startTestServer()).token}` } });
    expect(lower.status).to.equal(200);
  });

  it("an expired token → 403 'Token expired'; a future expiry still works", async () => {
    const server = await startTestServer();
    const expired = await server.user(uniq("expired"), { superuser: true, expires: "2000-01-01T00:00:00Z" });
    const res = await get("/api/dcim/sites/", { token: expired.key });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ detail: "Token expired" });
    const future = await server.user(uniq("future"), { superuser: true, expires: "2999-01-01T00:00:00Z" });
    expect((await get("/api/dcim/sites/", { token: future.key })).status).to.equal(200);
  });

  it("a token of an inactive user → 403 'User inactive'; Basic for that user is refused", async () => {
    const server = await startTestServer();
    const username = uniq("inactive");
    const user = await server.user(username, { grants: [{ object_types: ["dcim.site"], actions: ["view"] }] });
    expect((await get("/api/dcim/sites/", { token: user.key })).status).to.equal(200);
    const off = await patch(`/api/users/users/${user.id}/`, { is_active: false });
    expect(off.status).to.equal(200);
    const res = await get("/api/dcim/sites/", { token: user.key });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ detail: "User inactive" });
    const before = await rows("users_token", { user_id: user.id });
    const prov = await call("POST", "/api/users/tokens/", { token: null, headers: { Authorization: basic(username, `${username}-password`) } });
    expect(prov.status).to.equal(403);
    expect(await rows("users_token", { user_id: user.id })).to.equal(before);
  });

  it("authentication runs after negotiation: a bad version beats a bad token", async () => {
    const res = await get("/api/dcim/sites/", { token: "bad", headers: { Accept: "application/json; version=7.0" } });
    expect(res.status).to.equal(406);
  });

  it("a token holder creates more tokens for themselves; a supplied key must be 40 characters", async () => {
    const server = await startTestServer();
    const res = await post("/api/users/tokens/", { description: "second", write_enabled: false });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ description: "second", write_enabled: false });
    expect(res.body.key).to.match(/^[0-9a-f]{40}$/);
    const admin = await server.db("users_user").where("username", "admin").first();
    expect((await row("users_token", res.body.id))?.user_id).to.equal(admin.id);
    const short = await post("/api/users/tokens/", { key: "abc" });
    expect(short.status).to.equal(400);
    expect(short.body.key).to.include("Ensure this field has at least 40 characters.");
    const before = await rows("users_token");
    const notHex = await post("/api/users/tokens/", { key: "g".repeat(40) });
    expect(notHex.status).to.equal(400);
    expect(notHex.body).to.deep.equal({ key: ["Token keys are 40 hexadecimal characters (0-9, a-f)."] });
    expect(await rows("users_token")).to.equal(before);
    const key = `${process.pid.toString(16)}`.padEnd(40, "c");
    const own = await post("/api/users/tokens/", { key });
    expect(own.status).to.equal(201);
    expect(own.body.key).to.equal(key);
    expect((await get("/api/dcim/sites/?limit=1", { token: key })).status).to.equal(200);
  });

  it("a read-only token can read but every write is 403 and changes nothing", async () => {
    const server = await startTestServer();
    const ro = await server.user(uniq("reader"), { superuser: true, writeEnabled: false });
    expect((await get("/api/dcim/sites/", { token: ro.key })).status).to.equal(200);
    const tag = await post("/api/extras/tags/", { name: uniq("Tag") });
    const name = uniq("Tag");
    const attempts = [
      await post("/api/extras/tags/", { name }, { token: ro.key }),
      await patch(`/api/extras/tags/${tag.body.id}/`, { description: "ro" }, { token: ro.key }),
      await patch("/api/extras/tags/", [{ id: tag.body.id, description: "ro" }], { token: ro.key }),
      await del(`/api/extras/tags/${tag.body.id}/`, undefined, { token: ro.key }),
      await del("/api/extras/tags/", [{ id: tag.body.id }], { token: ro.key }),
    ];
    for (const r of attempts) {
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ detail: "You do not have permission to perform this action." });
    }
    expect(await rows("extras_tag", { name })).to.equal(0);
    expect(await row("extras_tag", tag.body.id)).to.include({ description: "" });
  });

  it("POST /api/users/tokens/ with Basic credentials → 201 and a new usable token", async () => {
    const server = await startTestServer();
    const username = uniq("prov");
    const user = await server.user(username, { grants: [{ object_types: ["dcim.site"], actions: ["view"] }] });
    const before = await rows("users_token", { user_id: user.id });
    const res = await call("POST", "/api/users/tokens/", { token: null, headers: { Authorization: basic(username, `${username}-password`) } });
    expect(res.status).to.equal(201);
    expect(res.body.key).to.match(/^[0-9a-f]{40}$/);
    expect(res.body).to.include({ write_enabled: true, expires: null, description: "" });
    expect(res.body.url).to.equal(`${server.url}/api/users/tokens/${res.body.id}/`);
    expect(res.body.display).to.equal(`${res.body.key.slice(-6)} (${username})`);
    expect(res.body.created).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    // The seed's token shape, in Nautobot's order: the owner is not a field.
    expect(Object.keys(res.body)).to.deep.equal(["id", "display", "url", "created", "expires", "key", "write_enabled", "description"]);
    expect(await rows("users_token", { user_id: user.id })).to.equal(before + 1);
    expect((await get("/api/dcim/sites/", { token: res.body.key })).status).to.equal(200);
  });

  it("token provisioning also takes a JSON body with a description", async () => {
    const server = await startTestServer();
    const username = uniq("prov");
    await server.user(username);
    const res = await post("/api/users/tokens/", { description: "ci" }, { token: null, headers: { Authorization: basic(username, `${username}-password`) } });
    expect(res.status).to.equal(201);
    expect(res.body.description).to.equal("ci");
    // Nor is it in OPTIONS or among the filters; a `user` key in a body is ignored.
    const options = await call("OPTIONS", "/api/users/tokens/", { token: res.body.key });
    expect(options.body.actions.POST).to.not.have.property("user");
    expect((await get("/api/users/tokens/?user=admin", { token: res.body.key })).status).to.equal(400);
    const other = await server.user(uniq("other"));
    const mine = await post("/api/users/tokens/", { user: other.id }, { token: res.body.key });
    expect(mine.status).to.equal(201);
    expect(mine.body.display).to.equal(`${mine.body.key.slice(-6)} (${username})`);
  });

  it("bad password or unknown user → 403, no token created", async () => {
    const server = await startTestServer();
    const username = uniq("prov");
    const user = await server.user(username, { grants: [{ object_types: ["dcim.site"], actions: ["view"] }] });
    const before = await rows("users_token");
    for (const auth of [basic(username, "wrong"), basic(uniq("ghost"), "x")]) {
      const res = await call("POST", "/api/users/tokens/", { token: null, headers: { Authorization: auth } });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ detail: "Invalid username/password." });
    }
    expect(await rows("users_token")).to.equal(before);
    expect(user.id).to.be.a("string");
  });

  it("Basic credentials are refused everywhere but token provisioning", async () => {
    const res = await get("/api/dcim/sites/", { token: null, headers: { Authorization: basic("admin", "admin-password") } });
    expect(res.status).to.equal(403);
  });

  it("token created filters take date-times (a token's created is a date-time, not a date)", async () => {
    const server = await startTestServer();
    const holder = await server.user(uniq("clock"));
    const before = new Date(Date.now() - 60_000).toISOString();
    const after = new Date(Date.now() + 60_000).toISOString();
    const since = await get(`/api/users/tokens/?created__gte=${before}`, { token: holder.key });
    expect(since.status).to.equal(200);
    expect(since.body.count).to.equal(1);
    expect((await get(`/api/users/tokens/?created__gte=${after}`, { token: holder.key })).body.count).to.equal(0);
    expect((await get(`/api/users/tokens/?created__lte=${after}`, { token: holder.key })).body.count).to.equal(1);
    const bad = await get("/api/users/tokens/?created__gte=yesterday", { token: holder.key });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ created__gte: ["Enter a valid date/time."] });
  });

  it("users see only their own tokens; another's token → 404 and cannot be changed", async () => {
    const server = await startTestServer();
    const alice = await server.user(uniq("alice"));
    const bob = await server.user(uniq("bob"));
    const aliceList = await get("/api/users/tokens/", { token: alice.key });
    expect(aliceList.status).to.equal(200);
    expect(aliceList.body.results.map((t: { key: string }) => t.key)).to.deep.equal([alice.key]);
    const bobTokenId = (await get("/api/users/tokens/", { token: bob.key })).body.results[0].id;
    expect((await get(`/api/users/tokens/${bobTokenId}/`, { token: alice.key })).status).to.equal(404);
    const stolen = await patch(`/api/users/tokens/${bobTokenId}/`, { description: "mine" }, { token: alice.key });
    expect(stolen.status).to.equal(404);
    expect((await del(`/api/users/tokens/${bobTokenId}/`, undefined, { token: alice.key })).status).to.equal(404);
    expect(await row("users_token", bobTokenId)).to.include({ description: "" });
    const adminView = await get(`/api/users/tokens/${bobTokenId}/`);
    expect(adminView.status).to.equal(404);
  });
});
