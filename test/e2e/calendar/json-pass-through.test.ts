// The calendar's reads answered with the JSON text PostgreSQL writes (profiles/wordpress/
// record-text.ts): every archive and record route gives byte for byte the answer, headers
// included, that shaping the same rows in JavaScript gives, over the demo data and records
// made awkward on purpose; and an archive is sent without parsing or stringifying it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Store } from "../../../runtime/store.js";
import { createApp } from "../../../runtime/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { apis } from "../../../generated/server.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { post } from "../../support/http.js";
import { jsonCalls } from "../../support/json-calls.js";
import { NS } from "./support.js";

/** Headers that differ between any two requests. */
const PER_REQUEST = /^(date|x-request-id|ratelimit-.*|retry-after)$/;

interface Answer { status: number; headers: Array<[string, string]>; body: string }

describe("calendar JSON written by PostgreSQL", function () {
  let server: TestServer;
  /** Text only this file's records hold. */
  const token = `wp-json-${Math.random().toString(36).slice(2, 10)}`;
  const paths: string[] = [];

  const fetched = async (path: string, method = "GET", url = server.url): Promise<Answer> => {
    const res = await fetch(`${url}${NS}/${path}`, { method, headers: { Authorization: `Token ${server.token}` } });
    const headers = [...res.headers].filter(([k]) => !PER_REQUEST.test(k)).map(([k, v]): [string, string] => [k, v.replace(/'nonce-[0-9a-f]+'/, "'nonce'")]);
    return { status: res.status, headers, body: await res.text() };
  };

  /** The answer the JavaScript path gives: the store as if no record had JSON text. */
  const shapedInJavaScript = async (path: string, method?: string, url?: string): Promise<Answer> => {
    const { listJson, fetchJson } = Store.prototype;
    Store.prototype.listJson = async () => undefined;
    Store.prototype.fetchJson = async () => undefined;
    try {
      return await fetched(path, method, url);
    } finally {
      Object.assign(Store.prototype, { listJson, fetchJson });
    }
  };

  const made = async (route: string, body: Record<string, unknown>): Promise<{ id: number; slug: string }> => {
    const res = await post(`${NS}/${route}`, body);
    expect(res.status, `${route}: ${res.text}`).to.equal(201);
    paths.push(`${route}/${res.body.id}`, ...(["categories", "tags"].includes(route) ? [] : [`${route}/by-slug/${res.body.slug}`]));
    return res.body;
  };

  before(async function () {
    this.timeout(120_000);
    server = await startTestServer();
    const odd = `${token} quote " backslash \\ tab \t nl \n cr \r ctl \u0001\u001f é ☃ 😀 \u2028 \u00a0`;
    const top = await made("categories", { name: `${token} Top`, description: `Top ${odd}` });
    const middle = await made("categories", { name: `${token} Middle`, description: "Middle", parent: top.id });
    const leaf = await made("categories", { name: `${token} Leaf "leaf"`, description: "Leaf\u0001", parent: middle.id });
    const tag = await made("tags", { name: `${token} Tag ☃`, description: `Tag ${odd}` });
    const tag2 = await made("tags", { name: `${token} Tag 2`, description: "Second" });
    const venue = await made("venues", {
      venue: `${token} Hall "${odd}"`, description: `First paragraph ${odd}\n\nSecond\r\nline\n \u00a0\n<div>block</div>\n\n<P>upper</P>`,
      excerpt: " \u00a0\u3000 ", address: "", city: "Zürich", geo_lat: 0, geo_lng: -0.5, show_map: false, image: "https://img.example.org/a/b.JPEG?x=1.png#frag",
    });
    const bare = await made("venues", { venue: `${token} Bare Hall` });
    const organizers = [];
    for (const [n, extra] of [[1, { email: "a@example.org", phone: "" }], [2, { website: "https://org.example.org/x", image: "https://img.example.org/noext" }], [3, { description: "\n\n  \n" }]] as const) {
      organizers.push(await made("organizers", { organizer: `${token} Org ${n} ${odd}`, ...extra }));
    }
    const costs = ["$10", "20$", "0, 20$, 30$", "Free", "€1,5 – 3,25", "free 5 EUR", "10 – 10", "", "007.50", "abc", "FREE$", "10.5 € or 7,25 € freely"];
    const zones = ["America/New_York", "Asia/Kolkata", "UTC+5:30", "UTC", "Australia/Lord_Howe", "Europe/Berlin", "America/Sao_Paulo", "UTC-3"];
    for (let n = 0; n < costs.length; n++) {
      await made("events", {
        title: `${token} Event ${n} ${odd}`, description: n % 2 ? `Para ${odd}\n\n\nAnother\nline  ` : `<div>${token} block</div>`,
        excerpt: n % 3 ? `Excerpt ${n}` : "\u00a0 lone\u3000",
        start_date: `2031-0${1 + (n % 9)}-1${n % 10} 0${n % 10}:30:00`, end_date: `2031-0${1 + (n % 9)}-2${n % 10} 2${n % 4}:15:00`,
        timezone: zones[n % zones.length], all_day: n % 4 === 0, cost: costs[n], featured: n % 2 === 0, sticky: n % 5 === 0,
        website: n % 2 ? "" : "https://event.example.org/?a=1&b=\"2\"", image: n % 3 ? "" : "https://img.example.org/poster.WebP",
        venue: n % 3 === 0 ? venue.id : n % 3 === 1 ? bare.id : undefined,
        organizer: organizers.slice(0, n % 4).map((o) => o.id),
        categories: n % 2 ? [leaf.id, top.id, middle.id] : [],
        tags: n % 3 ? [tag2.id, tag.id] : [],
      });
    }
  });

  it("answers every archive and record as the JavaScript path does, byte for byte", async function () {
    this.timeout(300_000);
    const window = "start_date=2000-01-01&end_date=2099-12-31";
    const archives = [
      "events", "events?per_page=50", `events?per_page=5&page=2&${window}`, `events?per_page=50&${window}`, `events?per_page=50&${window}&search=${token}`,
      `events?per_page=3&page=3&${window}&search=${token}`, `events?${window}&featured=true&per_page=4`, "events?page=99", `events?per_page=2&${window}&_envelope=1`,
      "venues", "venues?per_page=50", `venues?search=${token}`, "venues?per_page=2&page=2", "organizers?per_page=50", `organizers?search=${token}&per_page=2`,
      "categories", "categories?per_page=50&hide_empty=false", `categories?search=${token}&hide_empty=0`, "categories?per_page=2&page=2&hide_empty=0",
      "tags?per_page=50&hide_empty=false", `tags?search=${token}&hide_empty=0&orderby=id&order=desc`, "categories?per_page=1&page=2&_envelope",
      "events?categories=no-such-category", "venues?event=999999", "categories?post=999999", "events?page=0",
    ];
    let compared = 0;
    for (const path of [...archives, ...paths, "events/1", "venues/1", "organizers/1", "categories/1", "tags/1", "events/999999", "events/by-slug/jazz-night"]) {
      for (const method of ["GET", "HEAD"]) {
        const text = await fetched(path, method);
        const shaped = await shapedInJavaScript(path, method);
        expect(text.status, `${method} ${path}`).to.equal(shaped.status);
        expect(text.headers, `${method} ${path}`).to.deep.equal(shaped.headers);
        expect(text.body, `${method} ${path}`).to.equal(shaped.body);
        if (text.status === 200 && method === "GET") compared++;
      }
    }
    expect(compared).to.be.greaterThan(40);
    // The records made here are among them, in every form.
    const archive = JSON.parse((await fetched(`events?per_page=50&${window}&search=${token}`)).body);
    expect(archive.events).to.have.length(12);
    expect(archive.events.map((e: { timezone_abbr: string }) => e.timezone_abbr)).to.include.members(["EST", "GMT+5:30", "UTC+5:30", "UTC"]);
  });

  it("writes dates in the site's zone as the JavaScript path does, whatever the zone", async function () {
    this.timeout(120_000);
    const calendar = apis.find((a) => a.name === "calendar")!;
    const window = "start_date=2000-01-01&end_date=2099-12-31";
    for (const timezone of ["America/New_York", "UTC+5:30", "UTC-11"]) {
      const zoned = apis.map((a) => (a === calendar ? { ...calendar, settings: { ...calendar.settings, timezone } } : a));
      const app = createApp(zoned, server.db, { ...configFromEnv(), logRequests: false });
      const site: Server = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      try {
        for (const path of [`events?per_page=50&${window}&search=${token}`, "venues?per_page=50", "organizers?per_page=50", ...paths.filter((p) => !p.startsWith("categories") && !p.startsWith("tags"))]) {
          const text = await fetched(path, "GET", url);
          const shaped = await shapedInJavaScript(path, "GET", url);
          expect(text.status, `${timezone} ${path}`).to.equal(200);
          expect(text.body, `${timezone} ${path}`).to.equal(shaped.body);
        }
      } finally {
        await new Promise((resolve) => site.close(resolve));
      }
    }
  });

  it("builds an archive's statement once for each text of its filters", async () => {
    const archives = ["events?per_page=50", `events?per_page=5&page=2&start_date=2031-01-01&end_date=2031-12-31`, "venues?per_page=50", "categories?hide_empty=0", "tags/1"];
    const read = async () => {
      for (const path of archives) expect((await fetched(path)).status).to.equal(200);
    };
    await read();
    const builder = Object.getPrototypeOf(server.db.queryBuilder()) as { toSQL: (...args: unknown[]) => { sql: string } };
    const toSQL = builder.toSQL;
    const built: number[] = [];
    builder.toSQL = function (this: unknown, ...args: unknown[]) {
      const compiled = toSQL.apply(this, args);
      built.push(compiled.sql.length);
      return compiled;
    };
    try {
      await read();
    } finally {
      builder.toSQL = toSQL;
    }
    // What is built is a selection's own small statement, never the records' text again.
    expect(built.filter((n) => n > 2_000)).to.deep.equal([]);
  });

  it("sends an archive and a record without parsing or stringifying the answer", async () => {
    const { result: bodies, seen } = await jsonCalls(async () => {
      const texts: string[] = [];
      // Filters that echo no text of the records into the archive's links.
      for (const path of ["events?per_page=50&start_date=2031-01-01&end_date=2031-12-31", paths.find((p) => p.startsWith("events/"))!, "venues?per_page=50"]) {
        const res = await fetch(`${server.url}${NS}/${path}`);
        expect(res.status).to.equal(200);
        expect(res.headers.get("content-type")).to.equal("application/json; charset=utf-8");
        texts.push(await res.text());
      }
      return texts;
    });
    expect(seen.filter((s) => s.includes(token))).to.deep.equal([]);
    expect(bodies.every((b) => b.includes(token))).to.equal(true);
  });
});
