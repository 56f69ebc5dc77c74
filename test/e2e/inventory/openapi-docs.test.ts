// Where the inventory's OpenAPI documents are served: `/api/docs/?format=openapi` answers with
// the document of the version the request negotiates (pynautobot's `openapi()` sends its
// version in the Accept header), `/api/swagger.json` too, and `/api/docs/` stays Swagger UI
// for browsers. Each document describes the OPTIONS and refusals of these very paths.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import { call, get } from "../../support/http.js";
import { Contract } from "../../support/contract.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const docs = "/api/docs/";

describe("inventory e2e: the OpenAPI documents as served", () => {
  it("docs/?format=openapi gives the negotiated version's document as JSON", async () => {
    // Every request first: comparing megabytes takes long enough for an idle keep-alive
    // connection to be closed under the next request.
    const plain = await get(`${docs}?format=openapi`);
    const byQuery = await get(`${docs}?format=openapi&api_version=1.3`);
    // As pynautobot's Request.get_openapi asks for it.
    const byHeader = await get(`${docs}?format=openapi`, { headers: { Accept: "application/json; version=1.3", "Content-Type": "application/json;" } });
    const unknown = await get(`${docs}?format=openapi&api_version=9.9`);
    expect(plain.status).to.equal(200);
    expect(plain.headers.get("content-type")).to.match(/^application\/json/);
    expect(plain.text).to.equal(JSON.stringify(inventory.openapi["1.2"]));
    expect(byQuery.text).to.equal(JSON.stringify(inventory.openapi["1.3"]));
    expect(byHeader.headers.get("api-version")).to.equal("1.3");
    expect(byHeader.text).to.equal(JSON.stringify(inventory.openapi["1.3"]));
    expect(unknown.status).to.equal(404);
    new Contract(inventory.openapi["1.2"] as Record<string, unknown>, "docs-1.2.json").check("get", docs, unknown);
  });

  it("swagger.json follows the Accept header's version, and docs/ stays HTML for browsers", async () => {
    const byHeader = await get("/api/swagger.json", { headers: { Accept: "application/json; version=1.3" } });
    expect(byHeader.body.info.version).to.equal("1.3");
    const page = await get(docs, { headers: { Accept: "text/html" } });
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(page.text).to.include("swagger.json?api_version=1.2");
  });

  it("OPTIONS on list, detail, root and docs paths answers as each document says", async () => {
    for (const version of inventory.versions.supported) {
      const contract = new Contract(inventory.openapi[version] as Record<string, unknown>, `options-${version}.json`);
      const headers = { Accept: `application/json; version=${version}` };
      const site = (await get("/api/dcim/sites/?limit=1", { headers })).body.results[0];
      for (const [path, template] of [["/api/dcim/sites/", "/api/dcim/sites/"], [`/api/dcim/sites/${site.id}/`, "/api/dcim/sites/{id}/"], ["/api/", "/api/"], [docs, docs]]) {
        const reply = await call("OPTIONS", path, { headers });
        expect(reply.status, path).to.equal(200);
        contract.check("options", template, reply);
      }
      const anonymous = await call("OPTIONS", "/api/dcim/sites/", { headers, token: null });
      expect(anonymous.status).to.equal(403);
      contract.check("options", "/api/dcim/sites/", anonymous);
    }
  });
});
