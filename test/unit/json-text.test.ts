// The two parts of an answer PostgreSQL writes (runtime/query/json-text.ts): its URL markers
// made the request's URLs by the statement itself (`withUrls`, run here on the embedded
// engine), and the server's finishing (`finished`): jsonb values written as JavaScript writes
// them, a list's objects run together, the whole kept in pieces, never one large string.
import { expect } from "chai";
import type { Database } from "../../runtime/db/connect.js";
import { API_URL_MARKER, finished, JsonText, SITE_URL_MARKER, urlValues, withUrls } from "../../runtime/query/json-text.js";
import { literal } from "../../runtime/query/sql.js";
import { freshEmbeddedDatabase } from "../support/fresh-db.js";

describe("unit: PostgreSQL's JSON text", () => {
  const object = (n: number) => `{"id":${n},"url":"${API_URL_MARKER}ipam/prefixes/${n}/","image":"${SITE_URL_MARKER}/media/${n}.png","site":{"url":"${API_URL_MARKER}dcim/sites/1/"}}`;
  let db: Database;
  before(async () => {
    db = await freshEmbeddedDatabase();
  });
  after(async () => {
    await db?.close();
  });
  const written = async (text: string, urls: { api: string; site: string }): Promise<string> =>
    (await db.knex.raw(`SELECT ${withUrls(literal(text))} AS j`, urlValues(urls, literal(text)))).rows[0].j;

  it("has the statement make each marker the request's URL, as a JSON string holds it", async () => {
    expect(JSON.parse(await written(object(1), { api: "http://h/api/", site: "http://h" }))).to.deep.equal({
      id: 1, url: "http://h/api/ipam/prefixes/1/", image: "http://h/media/1.png", site: { url: "http://h/api/dcim/sites/1/" },
    });
    // Characters a replacement pattern would read, and one a JSON string must escape.
    const odd = { api: "http://h/$&$1$$\\/api/", site: "http://h/$'" };
    expect(JSON.parse(await written(object(2), odd))).to.deep.include({ url: "http://h/$&$1$$\\/api/ipam/prefixes/2/", image: "http://h/$'/media/2.png" });
  });

  it("replaces only the markers a text's SQL holds, binding a value for each", async () => {
    const apiOnly = `{"url":"${API_URL_MARKER}x/"}`;
    expect(withUrls(literal(apiOnly))).to.equal(`replace(${literal(apiOnly)}, chr(1), ?)`);
    expect(urlValues({ api: "http://h/api/", site: "http://h" }, literal(apiOnly))).to.deep.equal(["http://h/api/"]);
    expect(await written(apiOnly, { api: "http://h/api/", site: "http://h" })).to.equal('{"url":"http://h/api/x/"}');
    const siteOnly = `{"image":"${SITE_URL_MARKER}/m.png"}`;
    expect(await written(siteOnly, { api: "http://h/api/", site: "http://s" })).to.equal('{"image":"http://s/m.png"}');
    expect(withUrls("'{}'")).to.equal("'{}'");
    expect(urlValues({ api: "a", site: "s" }, "'{}'")).to.deep.equal([]);
  });

  it("writes jsonb values again as JavaScript writes them, and leaves other text as it is", () => {
    const withJsonb = '{"url":"http://h/api/x/","data":\u0003{"b": 1.50, "a": [1, 2]}\u0004,"n":\u00032.0\u0004}';
    expect(finished(withJsonb).text).to.equal('{"url":"http://h/api/x/","data":{"b":1.5,"a":[1,2]},"n":2}');
    expect(finished('{"a":"b"}').parts).to.deep.equal(['{"a":"b"}']);
  });

  it("writes a value that objects repeat as each would have it, and as many distinct ones as come", () => {
    const device = (n: number, data: string) => `{"id":${n},"config_context":\u0003${data}\u0004,"local":\u0003{"n": ${n}}\u0004}`;
    const shared = '{"ntp": {"servers": ["10.0.0.1"]}, "dns": [1.0]}';
    const page = JSON.parse(finished(Array.from({ length: 300 }, (_, n) => device(n, n % 3 ? shared : '{"own": true}'))).text);
    expect(page).to.have.length(300);
    expect(page[1]).to.deep.equal({ id: 1, config_context: { ntp: { servers: ["10.0.0.1"] }, dns: [1] }, local: { n: 1 } });
    expect(page[299]).to.deep.equal({ id: 299, config_context: { ntp: { servers: ["10.0.0.1"] }, dns: [1] }, local: { n: 299 } });
    expect(page[297]).to.deep.equal({ id: 297, config_context: { own: true }, local: { n: 297 } });
    expect(finished(device(7, shared)).text).to.equal('{"id":7,"config_context":{"ntp":{"servers":["10.0.0.1"]},"dns":[1]},"local":{"n":7}}');
  });

  it("runs a list's objects together in pieces under V8's large objects", () => {
    const page = finished(Array.from({ length: 1000 }, (_, n) => `{"id":${n},"url":"http://h/api/ipam/prefixes/${n}/"}`));
    const parsed = JSON.parse(page.text);
    expect(parsed).to.have.length(1000);
    expect(parsed[999].url).to.equal("http://h/api/ipam/prefixes/999/");
    expect(page.parts.length).to.be.greaterThan(1);
    expect(Math.max(...page.parts.map((p) => p.length))).to.be.below(32768);
    expect(finished([]).text).to.equal("[]");
  });

  it("gives an object's text of 1K characters or more as a piece of its own, as pg gave it", () => {
    const big = (n: number) => `{"id":${n},"description":"${"x".repeat(1200)}"}`;
    const page = finished([big(1), big(2)]);
    expect(page.parts).to.deep.equal(["[", big(1), ",", big(2), "]"]);
    expect(JSON.parse(page.text).map((o: { id: number }) => o.id)).to.deep.equal([1, 2]);
  });

  it("tells the empty list without running the pieces together", () => {
    expect(finished([]).isEmptyList).to.equal(true);
    expect(new JsonText("[", "]").isEmptyList).to.equal(true);
    expect(new JsonText("{}").isEmptyList).to.equal(false);
    expect(finished(['{"id":1}']).isEmptyList).to.equal(false);
  });
});
