// The browsable API as DRF draws it for a browser: paging links, a filter form from the filter
// set, an OPTIONS button, raw-data forms for the writes an endpoint allows (POST on a list,
// PUT and PATCH on an object, prefilled), DELETE; no inline script; and the forms' writes,
// which a browser session makes with its CSRF token (and cannot make without it).
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

async function html(path: string, opts: { cookie?: string; token?: boolean; method?: string } = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const server = await startTestServer();
  const headers: Record<string, string> = { Accept: "text/html" };
  if (opts.cookie) headers.Cookie = opts.cookie;
  if (opts.token !== false && !opts.cookie) headers.Authorization = `Token ${server.token}`;
  const reply = await fetch(`${server.url}${path}`, { method: opts.method ?? "GET", headers, redirect: "manual" });
  return { status: reply.status, text: await reply.text(), headers: reply.headers };
}

/** Text with the entities Handlebars writes decoded. */
function decode(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#x3D;/g, "=").replace(/&#x60;/g, "`").replace(/&amp;/g, "&");
}

/** The raw-data textarea of a form, decoded. */
function rawData(page: string, method: string): Record<string, unknown> {
  const m = new RegExp(`id="form-${method}"[\\s\\S]*?<textarea[^>]*>([\\s\\S]*?)</textarea>`).exec(page);
  expect(m, `no ${method} form`).to.not.equal(null);
  return JSON.parse(decode(m![1]));
}

async function login(): Promise<{ cookie: string; csrf: string; name: string }> {
  const server = await startTestServer();
  const name = uniq("browsable");
  await server.user(name, { grants: [{ object_types: ["dcim.site"], actions: ["view", "add", "change", "delete"] }] });
  const ok = await fetch(`${server.url}/api/login/`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ username: name, password: `${name}-password`, next: "/api/dcim/sites/" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(ok.status).to.equal(302);
  const cookie = ok.headers.get("set-cookie")!.split(";")[0];
  const page = await html("/api/dcim/sites/", { cookie });
  const csrf = /<meta name="csrf-token" content="([0-9a-f]{64})">/.exec(page.text)?.[1];
  expect(csrf, "the page carries the session's CSRF token").to.be.a("string");
  return { cookie, csrf: csrf!, name };
}

describe("inventory e2e: the browsable API", () => {
  it("a list page has paging links, a filter form, an OPTIONS button and a prefilled POST form, and no inline script", async () => {
    const page = await html("/api/dcim/sites/?limit=1&offset=1&has_devices=true");
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-security-policy")).to.match(/script-src 'self' 'nonce-/);
    const text = decode(page.text);
    expect(text).to.include('<a href="/api/dcim/sites/?limit=1&has_devices=true" rel="first">');
    // The server's own links, with their parameters sorted.
    expect(text).to.include('<a href="/api/dcim/sites/?has_devices=true&limit=1" rel="prev">');
    expect(text).to.match(/<a href="\/api\/dcim\/sites\/\?has_devices=true&limit=1&offset=2" rel="next">|<span>Next ›<\/span>/);
    // The filter form: the model's filters, the request's values selected, paging kept.
    expect(text).to.include('<form method="get" action="/api/dcim/sites/" id="filter-form">');
    expect(text).to.match(/<select name="has_devices"><option value="">---------<\/option><option value="true" selected>Yes<\/option>/);
    expect(text).to.include('<input type="text" name="q" value="">');
    expect(text).to.include('<input type="text" name="region_id" value="">');
    expect(text).to.include('<input type="hidden" name="limit" value="1">');
    const devices = decode((await html("/api/dcim/devices/?face=front")).text);
    expect(devices).to.match(/<select name="face">[\s\S]*?<option value="front" selected>Front<\/option>/);
    expect(text).to.include('id="options-button"');
    // The HTML form, from the write metadata: text, choices (live ones too) as selects, numbers.
    expect(text).to.match(/<form class="api-form html-form" data-method="POST" action="\/api\/dcim\/sites\/[^"]*" id="html-form-POST">/);
    expect(text).to.include('<input type="text" name="name" value="" data-sends="text">');
    expect(text).to.match(/<select name="status" data-sends="text"><option value="" selected>---------<\/option>[\s\S]*?<option value="active">Active<\/option>/);
    expect(text).to.include('<input type="number" step="any" name="latitude" value="" data-sends="number">');
    const blank = rawData(page.text, "POST");
    expect(blank).to.include.keys("name", "status", "description");
    expect(blank.name).to.equal("");
    expect(page.text).to.include('<script src="/api/docs/static/browsable.js"></script>');
    expect(page.text).to.not.match(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it("an object page has PUT and PATCH forms prefilled from the object, and DELETE", async () => {
    const server = await startTestServer();
    const site = (await (await fetch(`${server.url}/api/dcim/sites/?limit=1`, { headers: { Authorization: `Token ${server.token}` } })).json()).results[0];
    const page = await html(`/api/dcim/sites/${site.id}/`);
    expect(page.status).to.equal(200);
    const current = rawData(page.text, "PUT");
    expect(current.name).to.equal(site.name);
    expect(current.status).to.equal(site.status.value);
    expect(current).to.not.have.any.keys("id", "url", "display", "created");
    expect(rawData(page.text, "PATCH")).to.deep.equal({});
    const text = decode(page.text);
    expect(text).to.include(`<input type="text" name="name" value="${site.name}" data-sends="text">`);
    expect(text).to.match(new RegExp(`<select name="status" data-sends="text">[\\s\\S]*?<option value="${site.status.value}" selected>`));
    expect(text).to.not.include('id="html-form-PATCH"');
    expect(page.text).to.include('id="delete-button"');
    expect(page.text).to.not.include('id="filter-form"');
  });

  it("OPTIONS renders for a browser, and the forms' script is served from this site", async () => {
    const server = await startTestServer();
    const options = await html("/api/dcim/sites/", { method: "OPTIONS" });
    expect(options.status).to.equal(200);
    expect(options.headers.get("content-type")).to.match(/^text\/html/);
    expect(options.text).to.include("&quot;actions&quot;");
    const script = await fetch(`${server.url}/api/docs/static/browsable.js`);
    expect(script.status).to.equal(200);
    expect(script.headers.get("content-type")).to.match(/javascript/);
    expect(await script.text()).to.include("X-CSRFToken");
  });

  it("anonymous visitors get no write forms", async () => {
    const page = await html("/api/", { token: false });
    expect(page.status).to.equal(200);
    expect(page.text).to.not.include('id="form-POST"');
  });

  it("a browser session writes with its CSRF token, and only with it", async () => {
    const server = await startTestServer();
    const { cookie, csrf } = await login();
    const name = uniq("Form site");
    const send = (method: string, path: string, body: unknown, token?: string) => fetch(`${server.url}${path}`, {
      method, redirect: "manual", body: JSON.stringify(body),
      headers: { Cookie: cookie, Accept: "text/html", "Content-Type": "application/json", ...(token !== undefined ? { "X-CSRFToken": token } : {}) },
    });
    for (const token of [undefined, "", "0".repeat(64)]) {
      const refused = await send("POST", "/api/dcim/sites/", { name, status: "active" }, token);
      expect(refused.status, String(token)).to.equal(403);
    }
    expect(await rows("dcim_site", { name })).to.equal(0);

    const made = await send("POST", "/api/dcim/sites/", { name, status: "active" }, csrf);
    expect(made.status).to.equal(201);
    const shown = await made.text();
    expect(shown).to.include(name);
    const id = /\/api\/dcim\/sites\/([0-9a-f-]{36})\//.exec(made.headers.get("location") ?? "")![1];
    const edited = await send("PATCH", `/api/dcim/sites/${id}/`, { description: "from the form" }, csrf);
    expect(edited.status).to.equal(200);
    expect((await server.db("dcim_site").where("id", id).first()).description).to.equal("from the form");
    // The session's key is no writing token on its own.
    const key = decodeURIComponent(cookie.split("=")[1]);
    const byHeader = await fetch(`${server.url}/api/dcim/sites/${id}/`, {
      method: "PATCH", body: JSON.stringify({ description: "by header" }),
      headers: { Authorization: `Token ${key}`, "Content-Type": "application/json", "X-CSRFToken": csrf },
    });
    expect(byHeader.status).to.equal(403);
    const gone = await send("DELETE", `/api/dcim/sites/${id}/`, undefined, csrf);
    expect(gone.status).to.equal(204);
    expect(await rows("dcim_site", { id })).to.equal(0);
  });
});
