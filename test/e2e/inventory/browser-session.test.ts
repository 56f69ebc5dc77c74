// The browsable view's login: a form, an expiring session token in an HttpOnly cookie,
// honoured on safe methods and on writes that carry the session's CSRF token (as Django's
// SessionAuthentication), and a POST-only logout that deletes the token.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

async function form(path: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
  const server = await startTestServer();
  return fetch(`${server.url}${path}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

async function page(path: string, cookie: string, accept = "text/html"): Promise<Response> {
  const server = await startTestServer();
  return fetch(`${server.url}${path}`, { headers: { Cookie: cookie, Accept: accept }, redirect: "manual" });
}

describe("inventory e2e: browser login for the browsable view", () => {
  it("serves the login form; bad credentials → 403 with the form and no session", async () => {
    const server = await startTestServer();
    const formPage = await fetch(`${server.url}/api/login/?next=/api/dcim/sites/`);
    expect(formPage.status).to.equal(200);
    const html = await formPage.text();
    expect(html).to.include('name="password"').and.include('value="/api/dcim/sites/"');
    const before = await rows("users_token", { description: "browser session" });
    const bad = await form("/api/login/", { username: "admin", password: "wrong" });
    expect(bad.status).to.equal(403);
    expect(bad.headers.get("set-cookie")).to.equal(null);
    expect(await bad.text()).to.include("Invalid username/password.");
    expect(await rows("users_token", { description: "browser session" })).to.equal(before);
  });

  it("a login sets a session cookie that browses, but writes only with its CSRF token", async () => {
    const server = await startTestServer();
    const name = uniq("browser");
    // Allowed to add sites: what keeps the session from writing is the missing CSRF token.
    await server.user(name, { grants: [{ object_types: ["dcim.site"], actions: ["view", "add"] }] });
    const ok = await form("/api/login/", { username: name, password: `${name}-password`, next: "/api/dcim/sites/" });
    expect(ok.status).to.equal(302);
    expect(ok.headers.get("location")).to.equal("/api/dcim/sites/");
    const setCookie = ok.headers.get("set-cookie")!;
    expect(setCookie).to.match(/^armature_session=[0-9a-f]{40};/).and.match(/HttpOnly/).and.match(/SameSite=Lax/);
    const cookie = setCookie.split(";")[0];
    const key = cookie.split("=")[1];
    const token = await server.db("users_token").where("key", key).first();
    // Read-only as a token: only the session, with its CSRF token, writes.
    expect(token.write_enabled).to.equal(false);
    expect(new Date(token.expires).getTime()).to.be.greaterThan(Date.now() + 13 * 24 * 3600 * 1000);

    const html = await page("/api/dcim/sites/", cookie);
    expect(html.status).to.equal(200);
    const text = await html.text();
    expect(text).to.include(`Logged in as ${name}`);
    expect(text).to.match(/<a href="http:\/\/127\.0\.0\.1:\d+\/api\/dcim\/sites\/[0-9a-f-]{36}\/">/);
    expect((await page("/api/dcim/sites/", cookie, "application/json")).status).to.equal(200);

    const siteName = uniq("Cookie site");
    const write = await fetch(`${server.url}/api/dcim/sites/`, {
      method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ name: siteName, status: "active" }),
    });
    expect(write.status).to.equal(403);
    expect(await write.json()).to.deep.equal({ detail: "Authentication credentials were not provided." });
    expect(await rows("dcim_site", { name: siteName })).to.equal(0);
  });

  it("logout is POST only, deletes the session token and clears the cookie; next may not leave the site", async () => {
    const server = await startTestServer();
    const name = uniq("leaver");
    await server.user(name);
    const ok = await form("/api/login/", { username: name, password: `${name}-password`, next: "//evil.example/" });
    expect(ok.headers.get("location")).to.equal("/api/");
    const cookie = ok.headers.get("set-cookie")!.split(";")[0];
    const key = cookie.split("=")[1];
    expect((await page("/api/logout/", cookie)).status).to.equal(405);
    expect(await rows("users_token", { key })).to.equal(1);
    const out = await form("/api/logout/", {}, cookie);
    expect(out.status).to.equal(302);
    expect(out.headers.get("set-cookie")).to.match(/^armature_session=;/);
    expect(await rows("users_token", { key })).to.equal(0);
    const after = await page("/api/dcim/sites/", cookie, "application/json");
    expect(after.status).to.equal(403);
  });
});
