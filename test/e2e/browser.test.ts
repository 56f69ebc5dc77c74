// The HTML pages in a real browser: Debian's Chromium, headless, driven by playwright-core.
// A visitor logs in, sees the browsable list with its filter form, paging links and forms,
// creates objects through the HTML form and the raw-data form (the page's script, its CSRF
// token, the content security policy all in play), opens the OPTIONS view; Swagger UI and ReDoc
// show the inventory's document and Swagger UI the calendar's, GraphiQL loads the schema, all
// from this server's own assets. On every page the browser's console shows no error (a
// resource refused by the content-security policy, a script error, a failed load such as a
// missing icon) and no request fails. Screenshots are judged by size and ink, never against
// another machine's pixels. Without Chromium (`.ci/run` installs it: `apt-get install
// chromium`) the tests skip and say so.
import { expect } from "chai";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page, type Request } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.js";
import { summarizePng } from "../support/png.js";
import { rows, uniq } from "./inventory/support.js";
import { NS } from "./calendar/support.js";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((p): p is string => !!p);

/**
 * A page that records every error its console shows (content-security refusals and failed
 * loads are console errors too), script errors, requests that failed or were answered with an
 * error status, and every origin it loaded from.
 */
async function open(browser: Browser): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const origins = new Set<string>();
  const pending = new Set<Request>();
  page.on("request", (r) => pending.add(r));
  page.on("requestfinished", (r) => pending.delete(r));
  page.on("requestfailed", (r) => pending.delete(r));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text().slice(0, 300)} (${m.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`answered ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  page.on("request", (r) => {
    if (!r.url().startsWith("data:")) origins.add(new URL(r.url()).origin);
  });
  return { page, problems, origins, pending };
}

interface Opened {
  page: Page;
  problems: string[];
  origins: Set<string>;
  /** Requests the page made that have neither finished nor failed. */
  pending: Set<Request>;
}

/** Logs `name` in through the login form, landing on `next`. */
async function logIn(page: Page, server: TestServer, name: string, next: string): Promise<void> {
  await page.goto(`${server.url}/api/login/?next=${encodeURIComponent(next)}`);
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', `${name}-password`);
  await Promise.all([page.waitForURL((u) => `${u.pathname}${u.search}` === next), page.click('button[type="submit"], input[type="submit"]')]);
}

/**
 * Asserts the page, once every request it made has ended, logged no error and loaded only from
 * the server. Counted here rather than with playwright's "networkidle" (no request for 500 ms,
 * within 30 s): on a loaded machine a page that is still laying out a document can miss that
 * window, and a timeout would not say which request was still open.
 */
async function clean({ page, problems, origins, pending }: Opened, server: TestServer): Promise<void> {
  const until = Date.now() + 180_000;
  while (pending.size > 0 && Date.now() < until) await page.waitForTimeout(100);
  expect([...pending].map((r) => `${r.method()} ${r.url()}`), "requests still open").to.deep.equal([]);
  expect(problems, "no console error, script error or failed request").to.deep.equal([]);
  expect([...origins]).to.deep.equal([server.url]);
}

async function screenshotLooksDrawn(page: Page): Promise<void> {
  const shot = summarizePng(await page.screenshot({ fullPage: false }));
  expect([shot.width, shot.height]).to.deep.equal([1280, 900]);
  expect(shot.inked, "share of the screenshot drawn over the background").to.be.above(0.02);
  expect(shot.colours).to.be.above(8);
}

describe("browser: the browsable API and Swagger UI in headless Chromium", function () {
  this.timeout(300_000);
  let browser: Browser | undefined;

  before(async function () {
    const executable = CANDIDATES.find((p) => existsSync(p));
    if (!executable) {
      console.log(`    (skipped: no Chromium at ${CANDIDATES.join(", ")}; apt-get install chromium, or set CHROMIUM_PATH)`);
      this.skip();
    }
    browser = await chromium.launch({ executablePath: executable, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  });

  after(async () => {
    await browser?.close();
  });

  it("logs in, filters, pages, creates through the HTML and raw-data forms and opens the OPTIONS view", async () => {
    const server = await startTestServer();
    const name = uniq("chromium");
    await server.user(name, { grants: [{ object_types: ["dcim.site"], actions: ["view", "add"] }] });
    const opened = await open(browser!);
    const { page } = opened;

    await logIn(page, server, name, "/api/dcim/sites/?limit=1");

    expect(await page.textContent("h1")).to.equal("Site list");
    expect(await page.locator('a[rel="next"]').count()).to.equal(1);
    expect(await page.locator("#filter-form select[name='has_devices'] option").count()).to.equal(3);
    expect(await page.locator("#filter-form input[name='q']").count()).to.equal(1);
    expect(await page.locator("#form-POST textarea").count()).to.equal(1);
    expect(await page.locator("#options-button").isVisible()).to.equal(true);
    await screenshotLooksDrawn(page);

    // Paging: the next link, then back to the first page.
    await Promise.all([page.waitForURL(/offset=1/), page.click('a[rel="next"]')]);
    await Promise.all([page.waitForURL((u) => !u.searchParams.has("offset")), page.click('a[rel="first"]')]);

    // The filter form: a search narrows the list, the value stays in the form.
    await page.locator("details#filters > summary").click();
    await page.fill("#filter-form input[name='q']", "no such site anywhere");
    await Promise.all([page.waitForURL(/q=no\+such\+site\+anywhere/), page.click("#filter-form button[type='submit']")]);
    expect(await page.textContent("#response")).to.include('"count": 0');
    expect(await page.inputValue("#filter-form input[name='q']")).to.equal("no such site anywhere");

    // The raw-data form posts JSON with the session's CSRF token.
    await page.goto(`${server.url}/api/dcim/sites/`);
    const siteName = uniq("Chromium site");
    await page.fill("#form-POST textarea", JSON.stringify({ name: siteName, status: "active" }));
    await page.click("#form-POST button[type='submit']");
    await page.waitForFunction(() => document.querySelector(".request")?.textContent?.includes("HTTP 201"));
    expect(await page.textContent("#response")).to.include(siteName);
    expect(await rows("dcim_site", { name: siteName })).to.equal(1);

    // The HTML form: fields gathered into JSON, the status from its select.
    await page.goto(`${server.url}/api/dcim/sites/`);
    const formSite = uniq("Chromium form site");
    await page.fill("#html-form-POST input[name='name']", formSite);
    await page.selectOption("#html-form-POST select[name='status']", "planned");
    await page.fill("#html-form-POST input[name='latitude']", "12.5");
    await page.click("#html-form-POST button[type='submit']");
    await page.waitForFunction(() => document.querySelector(".request")?.textContent?.includes("HTTP 201"));
    const stored = await server.db("dcim_site").where("name", formSite).first();
    expect(Number(stored.latitude)).to.equal(12.5);

    await page.goto(`${server.url}/api/dcim/sites/`);
    await page.click("#options-button");
    await page.waitForFunction(() => document.querySelector(".request")?.textContent?.startsWith("OPTIONS"));
    expect(await page.textContent("#response")).to.include('"actions"');

    await clean(opened, server);
    await page.close();
  });

  // The inventory's page is the same template over a document of megabytes: the calendar's
  // shows the page works at a fraction of the time.
  it("shows Swagger UI for the calendar API from this server's assets", async () => {
    const server = await startTestServer();
    const opened = await open(browser!);
    const { page } = opened;
    const reply = await page.goto(`${server.url}${NS}/doc`);
    expect(reply?.status()).to.equal(200);
    await page.waitForSelector(".opblock", { timeout: 120_000 });
    expect(await page.locator(".opblock").count()).to.be.above(5);
    expect(await page.locator(".info .title").textContent()).to.not.equal("");
    await screenshotLooksDrawn(page);
    await clean(opened, server);
    await page.close();
  });

  // The inventory's documents are megabytes: a busy machine may take minutes to lay them out.
  it("shows Swagger UI for the inventory API without a console error", async function () {
    this.timeout(600_000);
    const server = await startTestServer();
    const opened = await open(browser!);
    const { page } = opened;
    expect((await page.goto(`${server.url}/api/docs/`))?.status()).to.equal(200);
    await page.waitForSelector(".opblock", { timeout: 540_000 });
    expect(await page.locator(".opblock").count()).to.be.above(5);
    await screenshotLooksDrawn(page);
    await clean(opened, server);
    await page.close();
  });

  // ReDoc lays every operation out at once, samples and all: over the whole megabyte document
  // that is minutes of a loaded machine's CPU (Swagger UI, above, takes the whole document). The
  // page, its assets and its policy are the same for any document, so ReDoc gets this server's
  // own document cut to the circuits app's paths, every component kept.
  it("shows ReDoc for the inventory API's circuits paths with nothing fetched from elsewhere", async function () {
    this.timeout(600_000);
    const server = await startTestServer();
    const opened = await open(browser!);
    const { page } = opened;
    await page.route(/\/api\/swagger\/\?/, async (route) => {
      // In JSON, which the server renders and the test parses in a fraction of YAML's time.
      const served = await route.fetch({ headers: { ...route.request().headers(), accept: "application/json" } });
      const doc = (await served.json()) as { paths: Record<string, unknown> };
      const paths = Object.fromEntries(Object.entries(doc.paths).filter(([path]) => path.startsWith("/api/circuits/")));
      expect(Object.keys(paths)).to.have.length.above(5);
      await route.fulfill({ response: served, json: { ...doc, paths } });
    });
    expect((await page.goto(`${server.url}/api/redoc/`))?.status()).to.equal(200);
    await page.waitForSelector(".api-content h1", { timeout: 540_000 });
    expect(await page.locator("[data-section-id^='operation/circuits']").count()).to.be.above(5);
    await screenshotLooksDrawn(page);
    await clean(opened, server);
    await page.close();
  });

  it("shows GraphiQL with its fonts and answers a query from the session", async () => {
    const server = await startTestServer();
    const name = uniq("graphiql");
    await server.user(name, { grants: [{ object_types: ["dcim.site"], actions: ["view"] }] });
    const opened = await open(browser!);
    const { page } = opened;
    await logIn(page, server, name, "/api/dcim/sites/");

    // The page's first POST asks the schema; it is answered from the session's login.
    const [schema] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${server.url}/api/graphql/` && r.request().method() === "POST", { timeout: 120_000 }),
      page.goto(`${server.url}/api/graphql/`),
    ]);
    expect(schema.status()).to.equal(200);
    expect(JSON.stringify(await schema.json())).to.include("__schema");
    await page.waitForSelector(".graphiql-container", { timeout: 120_000 });
    // GraphiQL's stylesheet brings its fonts inline; the content-security policy lets them load.
    await page.waitForFunction(() => document.fonts.status === "loaded");
    expect(await page.evaluate(() => [...document.fonts].some((f) => f.status === "loaded"))).to.equal(true);
    await screenshotLooksDrawn(page);

    // The site's icon, which every browser asks for, is there.
    const icon = await page.request.get(`${server.url}/favicon.ico`);
    expect(icon.status()).to.equal(200);
    expect(icon.headers()["content-type"]).to.equal("image/x-icon");
    expect((await icon.body()).subarray(0, 4)).to.deep.equal(Buffer.from([0, 0, 1, 0]));
    await clean(opened, server);
    await page.close();
  });
});
