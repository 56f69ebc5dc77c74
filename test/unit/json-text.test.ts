// The server's part of an answer PostgreSQL wrote (runtime/query/json-text.ts `finished`): its
// URL markers made the request's URLs, its jsonb values written as JavaScript writes them, a
// list's objects run together, and the whole kept in pieces, never one large string.
import { expect } from "chai";
import { API_URL_MARKER, finished, JsonText, SITE_URL_MARKER } from "../../runtime/query/json-text.js";

describe("unit: finishing PostgreSQL's JSON text", () => {
  const urls = { api: "http://h/api/", site: "http://h" };
  const object = (n: number) => `{"id":${n},"url":"${API_URL_MARKER}ipam/prefixes/${n}/","image":"${SITE_URL_MARKER}/media/${n}.png","site":{"url":"${API_URL_MARKER}dcim/sites/1/"}}`;

  it("makes each marker the request's URL, in objects with jsonb values to write and without", () => {
    expect(JSON.parse(finished(object(1), urls).text)).to.deep.equal({
      id: 1, url: "http://h/api/ipam/prefixes/1/", image: "http://h/media/1.png", site: { url: "http://h/api/dcim/sites/1/" },
    });
    const withJsonb = `{"url":"${API_URL_MARKER}x/","data":\u0003{"b": 1.50, "a": [1, 2]}\u0004}`;
    expect(finished(withJsonb, urls).text).to.equal('{"url":"http://h/api/x/","data":{"b":1.5,"a":[1,2]}}');
  });

  it("gives a URL as it is, whatever characters a replacement pattern would read in it", () => {
    const odd = { api: "http://h/$&$1$$/api/", site: "http://h/$'" };
    expect(JSON.parse(finished(object(2), odd).text)).to.deep.include({ url: "http://h/$&$1$$/api/ipam/prefixes/2/", image: "http://h/$'/media/2.png" });
  });

  it("runs a list's objects together in pieces under V8's large objects", () => {
    const page = finished(Array.from({ length: 1000 }, (_, n) => object(n)), urls);
    const parsed = JSON.parse(page.text);
    expect(parsed).to.have.length(1000);
    expect(parsed[999].url).to.equal("http://h/api/ipam/prefixes/999/");
    expect(page.parts.length).to.be.greaterThan(1);
    expect(Math.max(...page.parts.map((p) => p.length))).to.be.below(32768);
    expect(finished([], urls).text).to.equal("[]");
  });

  it("tells the empty list without running the pieces together", () => {
    expect(finished([], urls).isEmptyList).to.equal(true);
    expect(new JsonText("[", "]").isEmptyList).to.equal(true);
    expect(new JsonText("{}").isEmptyList).to.equal(false);
    expect(finished([object(1)], urls).isEmptyList).to.equal(false);
  });
});
