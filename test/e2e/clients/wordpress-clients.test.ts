// The calendar through WordPress's own JavaScript clients, unmodified, against the real server:
// wpapi (discovery from the site's URL, a namespace's routes, `_paging` from the Link and total
// headers, writes with an application password) and @wordpress/api-fetch (a root URL
// middleware, its `parse: false` responses, its errors). Reads go through the fast path and
// writes through Express, so both are what a client of either meets.
import { expect } from "chai";
import WPAPI from "wpapi";
import apiFetchImport, { type APIFetchOptions } from "@wordpress/api-fetch";
import { startTestServer } from "../../support/server.js";
import { uniq } from "../inventory/support.js";

// Its types are a CommonJS module's to TypeScript (a plain .d.ts in a package without
// "type"); what Node imports is its ES module build, whose default export is apiFetch itself.
const apiFetch = apiFetchImport as unknown as typeof apiFetchImport.default;

const NS = "calendar/events/v1";

interface Archive { total: number; total_pages: number; events?: unknown[]; next_rest_url?: string }
type Event = { id: number; title: string; start_date: string };

describe("WordPress clients: wpapi and @wordpress/api-fetch against the calendar", () => {
  let site = "";
  let password = "";

  before(async () => {
    const server = await startTestServer();
    site = server.url;
    const made = await fetch(`${site}/wp-json/wp/v2/users/me/application-passwords`, {
      method: "POST", headers: { Authorization: `Token ${server.token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: uniq("wp-clients") }),
    });
    expect(made.status, await made.clone().text()).to.equal(201);
    password = (await made.json() as { password: string }).password;
  });

  it("wpapi discovers the API from the site, pages an archive by its links, and creates, reads and deletes an event", async () => {
    const wp = await WPAPI.discover(site);
    wp.auth({ username: "admin", password });
    const ns = wp.namespace(NS);
    const window = { start_date: "2000-01-01", end_date: "2099-12-31" };
    const first = await ns.events().param(window).perPage(1).get() as Archive & { _paging: { total: number; totalPages: number; next?: { get(): Promise<Archive> } } };
    expect(first.events).to.have.length(1);
    expect(first._paging.total).to.equal(first.total).and.to.be.greaterThan(1);
    expect(first._paging.totalPages).to.equal(first.total_pages);
    const second = await first._paging.next!.get();
    expect(second.events).to.have.length(1);
    expect(second.events![0]).to.not.deep.equal(first.events![0]);

    const title = uniq("wpapi event");
    const made = await ns.events().create({ title, start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 12:00:00", status: "publish" }) as Event;
    expect(made).to.include({ title, start_date: "2031-05-01 10:00:00" });
    expect(await ns.events().id(made.id).get()).to.include({ id: made.id, title });
    expect(await ns.events().id(made.id).delete()).to.include({ id: made.id });
    const listed = await ns.events().param(window).search(title).get() as Archive;
    expect(listed.total, "a deleted event leaves the archive").to.equal(0);
  });

  it("api-fetch reads archives with their headers (HEAD too), writes a category, and throws WordPress's errors", async () => {
    const basic = `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;
    apiFetch.use(apiFetch.createRootURLMiddleware(`${site}/wp-json/`));
    apiFetch.use((options: APIFetchOptions, next: (o: APIFetchOptions) => Promise<unknown>) => next({ ...options, headers: { ...options.headers, Authorization: basic } }));

    const archive = await apiFetch<Archive>({ path: `/${NS}/events?per_page=2&start_date=2000-01-01` });
    expect(archive.events).to.have.length(2);
    const raw = await apiFetch<Response, false>({ path: `/${NS}/events?per_page=1&start_date=2000-01-01`, parse: false });
    expect(raw.status).to.equal(200);
    expect(Number(raw.headers.get("x-wp-total"))).to.equal(archive.total);
    expect(raw.headers.get("link")).to.include('rel="next"');
    const head = await apiFetch<Response, false>({ path: `/${NS}/events?per_page=1&start_date=2000-01-01`, method: "HEAD", parse: false });
    expect(head.status).to.equal(200);
    expect(head.headers.get("x-wp-total")).to.equal(raw.headers.get("x-wp-total"));

    const name = uniq("api-fetch category");
    const category = await apiFetch<{ id: number; name: string }>({ path: `/${NS}/categories`, method: "POST", data: { name } });
    expect(category.name).to.equal(name);
    await apiFetch({ path: `/${NS}/categories/${category.id}`, method: "DELETE" });

    const refused = await apiFetch({ path: `/${NS}/events?page=0` }).then(() => null, (err: { code?: string; data?: { status?: number } }) => err);
    expect(refused).to.deep.include({ code: "rest_invalid_param" });
    expect(refused?.data?.status).to.equal(400);
  });
});
