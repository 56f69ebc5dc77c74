// A token found valid is trusted for at most TOKEN_TRUST_MS without asking the database
// again: the instance that revokes it refuses it at once, every other instance within the bound.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "chai";
import { del, get, patch } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { TOKEN_TRUST_MS } from "../../../runtime/auth/identities.js";
import { apis } from "../../../generated/server.js";
import { uniq } from "./support.js";

describe("inventory e2e: token trust", () => {
  let other: Server;
  let url: string;

  before(async () => {
    const server = await startTestServer();
    const app = createApp(apis, server.db, { ...configFromEnv(), dataDir: "memory://", logRequests: false, publicUrl: undefined });
    other = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
    url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });

  after(() => new Promise((resolve) => other.close(resolve)));

  const sites = (base: string, token: string) => get(`${base}/api/dcim/sites/?limit=1`, { token });

  it("a deleted token is refused at once where it was deleted, and elsewhere within the bound", async () => {
    const server = await startTestServer();
    const { key } = await server.user(uniq("trust"), { superuser: true });
    expect((await sites("", key)).status).to.equal(200);
    expect((await sites(url, key)).status).to.equal(200);
    const token = (await get("/api/users/tokens/", { token: key })).body.results[0];
    expect((await del(`/api/users/tokens/${token.id}/`, undefined, { token: key })).status).to.equal(204);
    const here = await sites("", key);
    expect(here.status).to.equal(403);
    expect(here.body).to.deep.equal({ detail: "Invalid token" });
    await sleep(TOKEN_TRUST_MS + 100);
    const there = await sites(url, key);
    expect(there.status).to.equal(403);
    expect(there.body).to.deep.equal({ detail: "Invalid token" });
  });

  it("a deactivated user's token is refused within the bound on every instance", async () => {
    const server = await startTestServer();
    const user = await server.user(uniq("trust"), { superuser: true });
    expect((await sites(url, user.key)).status).to.equal(200);
    expect((await patch(`/api/users/users/${user.id}/`, { is_active: false })).status).to.equal(200);
    expect((await sites("", user.key)).body).to.deep.equal({ detail: "User inactive" });
    await sleep(TOKEN_TRUST_MS + 100);
    expect((await sites(url, user.key)).body).to.deep.equal({ detail: "User inactive" });
  });

  it("a token whose expiry passes is refused when it passes, trusted or not", async () => {
    const server = await startTestServer();
    const user = await server.user(uniq("trust"), { superuser: true });
    const expiry = Date.now() + 2000;
    await server.db("users_token").where("key", user.key).update({ expires: new Date(expiry).toISOString() });
    // Valid when asked, unless this machine took the whole two seconds to ask.
    const first = await sites(url, user.key);
    expect(first.status === 200 || first.body.detail === "Token expired", first.text).to.equal(true);
    await sleep(Math.max(0, expiry - Date.now()) + 50);
    expect((await sites(url, user.key)).body).to.deep.equal({ detail: "Token expired" });
  });
});
