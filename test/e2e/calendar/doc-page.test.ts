// The calendar's documentation path for a browser: Swagger UI over the same document, its
// files served by this server, its one inline script allowed by the reply's nonce. Clients
// asking for JSON (or anything) still get the document itself.
import { expect } from "chai";
import { get } from "../../support/http.js";
import { NS } from "./support.js";

describe("calendar e2e: Swagger UI at the documentation path", () => {
  it("serves a browser Swagger UI and everyone else the document", async () => {
    const page = await get(`${NS}/doc`, { token: null, headers: { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(page.headers.get("vary")).to.match(/Accept/);
    expect(page.text).to.include(`<script src="${NS}/doc/static/swagger-ui-bundle.js"></script>`);
    expect(page.text).to.include(`url: "${NS}/doc"`);
    const nonce = /'nonce-([0-9a-f]+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(page.text).to.include(`<script nonce="${nonce}">`);
    for (const asset of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
      expect((await get(`${NS}/doc/static/${asset}`, { token: null })).status, asset).to.equal(200);
    }
    for (const accept of [undefined, "application/json", "*/*"]) {
      const doc = await get(`${NS}/doc`, { token: null, headers: accept ? { Accept: accept } : {} });
      expect(doc.headers.get("content-type"), String(accept)).to.match(/^application\/json/);
      expect(doc.body.openapi).to.equal("3.1.0");
    }
  });
});
