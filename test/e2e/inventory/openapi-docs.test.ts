// Where the inventory's OpenAPI documents are served: `/api/docs/?format=openapi` answers with
// the document of the version the request negotiates (pynautobot's `openapi()` sends its
// version in the Accept header), `/api/swagger.json` too, and `/api/docs/` stays Swagger UI
// for browsers. Each document describes the OPTIONS and refusals of these very paths.
import { expect } from "chai";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { apis } from "../../../generated/server.js";
import { startTestServer } from "../../support/server.js";
import { servedDocument } from "../../../runtime/profiles/drf/documents.js";
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
    expect(plain.text).to.equal(JSON.stringify(servedDocument(inventory, "1.2", undefined, [], "inline")));
    expect(byQuery.text).to.equal(JSON.stringify(servedDocument(inventory, "1.3", undefined, [], "inline")));
    expect(byHeader.headers.get("api-version")).to.equal("1.3");
    expect(byHeader.text).to.equal(JSON.stringify(servedDocument(inventory, "1.3", undefined, [], "inline")));
    expect(unknown.status).to.equal(404);
    // Every parameter written out, as drf-spectacular writes them and clients read them (the
    // Ansible collection's inventory plugin takes each one's name, following no $ref).
    const devices = (plain.body as { paths: Record<string, { get: { parameters: Array<{ name?: string; $ref?: string }> } }> }).paths["/api/dcim/devices/"];
    expect(devices.get.parameters.length).to.be.greaterThan(50);
    expect(devices.get.parameters.filter((p) => typeof p.name !== "string" || p.$ref)).to.deep.equal([]);
    new Contract(inventory.openapi["1.2"] as Record<string, unknown>, "docs-1.2.json").check("get", docs, unknown);
  });

  it("swagger.json shares its parameters, and says with them what docs/?format=openapi writes inline", async () => {
    type Doc = { paths: Record<string, Record<string, { parameters?: Array<Record<string, unknown>> }>>; components: { parameters?: Record<string, Record<string, unknown>> } };
    const shared = (await get("/api/swagger.json?api_version=1.3")).body as Doc;
    const inline = (await get(`${docs}?format=openapi&api_version=1.3`)).body as Doc;
    expect(inline.components.parameters).to.equal(undefined);
    const refs = shared.paths["/api/dcim/devices/"].get.parameters!;
    expect(refs.length).to.be.greaterThan(50);
    expect(refs.every((p) => typeof p.$ref === "string" && Object.keys(p).length === 1)).to.equal(true);
    // Every shared parameter is referred to (a disabled app's are left out), and following
    // each reference gives exactly the inline document's operation, in order.
    const referred = new Set<string>();
    const resolve = (p: Record<string, unknown>) => {
      if (typeof p.$ref !== "string") return p;
      const name = p.$ref.replace("#/components/parameters/", "");
      referred.add(name);
      return shared.components.parameters![name];
    };
    expect(Object.keys(shared.paths)).to.deep.equal(Object.keys(inline.paths));
    for (const [path, item] of Object.entries(shared.paths)) {
      for (const [key, op] of Object.entries(item)) {
        const list = Array.isArray(op) ? op : op.parameters;
        const written = Array.isArray(inline.paths[path][key]) ? inline.paths[path][key] : inline.paths[path][key].parameters;
        expect(list?.map(resolve), `${key} ${path}`).to.deep.equal(written);
      }
    }
    expect([...referred].sort()).to.deep.equal(Object.keys(shared.components.parameters!).sort());
    const size = (doc: unknown) => Buffer.byteLength(JSON.stringify(doc));
    expect(size(shared)).to.be.below(size(inline) * 0.95);
  });

  it("is sent gzipped to a client that accepts gzip, and as text to one that does not", async () => {
    const server = await startTestServer();
    // node:http neither asks for an encoding nor undoes one by itself (fetch does both).
    const raw = (encoding?: string) => new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers: Record<string, string> = { Authorization: `Token ${server.token}`, ...(encoding ? { "Accept-Encoding": encoding } : {}) };
      http.get(`${server.url}/api/swagger.json?api_version=1.3`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) })).on("error", reject);
      }).on("error", reject);
    });
    const text = JSON.stringify(servedDocument(inventory, "1.3", undefined));
    const gzipped = await raw("gzip, deflate, br");
    expect(gzipped.headers["content-encoding"]).to.equal("gzip");
    expect(gzipped.headers.vary).to.match(/Accept-Encoding/i);
    expect(gunzipSync(gzipped.body).toString("utf8")).to.equal(text);
    // What a client fetching the document pays on the wire: some 94 kB of 1.73 MB.
    expect(gzipped.body.length).to.be.below(Buffer.byteLength(text) / 15);
    for (const refused of [undefined, "identity", "gzip;q=0"]) {
      const plain = await raw(refused);
      expect(plain.headers["content-encoding"], refused).to.equal(undefined);
      expect(plain.body.toString("utf8")).to.equal(text);
    }
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
