// What the HTML pages load besides themselves, checked over HTTP without a browser (the
// browser test, test/e2e/browser.test.ts, reads Chromium's console on the pages): the site's
// icon, which every browser asks for; the font sources GraphiQL's stylesheet needs; ReDoc's
// bundle without its one third-party address.
import { expect } from "chai";
import { get } from "../support/http.js";
import { startTestServer } from "../support/server.js";

describe("page assets: what a browser fetches for the documentation pages", () => {
  it("serves the site's icon at /favicon.ico", async () => {
    const res = await fetch(`${(await startTestServer()).url}/favicon.ico`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("image/x-icon");
    expect(res.headers.get("cache-control")).to.include("max-age=86400");
    const body = Buffer.from(await res.arrayBuffer());
    // An icon directory of one 32x32 image, a PNG inside.
    expect([...body.subarray(0, 8)]).to.deep.equal([0, 0, 1, 0, 1, 0, 32, 32]);
    expect(body.subarray(22, 26).toString("latin1")).to.equal("\x89PNG");
  });

  it("lets pages load fonts from this server and inline (GraphiQL's), and from nowhere else", async () => {
    const res = await get("/api/graphql/", { headers: { Accept: "text/html" } });
    expect(res.status).to.equal(200);
    expect(res.text).to.include("graphiql.min.css");
    expect(res.headers.get("content-security-policy")).to.include("font-src 'self' data:;");
  });

  it("serves ReDoc's bundle with no address of another site for the page to fetch", async () => {
    const res = await get("/api/redoc/static/redoc.standalone.js");
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^application\/javascript|^text\/javascript/);
    const js = res.text;
    expect(js.length).to.be.above(500_000);
    expect(js).to.not.include("cdn.redoc.ly");
    expect(js).to.include("API docs by Redocly");
    // The package's other files are still served as they are.
    expect((await get("/api/redoc/static/redoc.standalone.js.LICENSE.txt")).status).to.equal(200);
  });
});
