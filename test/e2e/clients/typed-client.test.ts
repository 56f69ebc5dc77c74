// The typed-client example (docs/clients/typed-client/) as a user would run it: types made by
// openapi-typescript from the served document, the example type-checked by tsc --strict, then
// run against the real server. Its replies must be what its types say, so it also checks that
// the document keeps the full and brief forms, and one-object and bulk creates, apart.
import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startTestServer } from "../../support/server.js";
import { get } from "../../support/http.js";
import { rows } from "../inventory/support.js";

const dir = fileURLToPath(new URL("../../../docs/clients/typed-client/", import.meta.url));
const tsc = fileURLToPath(new URL("../../../node_modules/.bin/tsc", import.meta.url));
// Loaded by URL, not by a static import: the example needs the generated types, which the
// project's own type check must not depend on (they exist only once this test made them).
const load = <T>(file: string): Promise<T> => import(new URL(file, new URL(`file://${dir}`)).href);

interface TourResult {
  sites: string[];
  devices: Array<{ name: string | null; site: string }>;
  briefDevices: string[];
  created: string;
  renamed: string;
  bulkCreated: string[];
}

describe("typed client: openapi-typescript + openapi-fetch under --strict", () => {
  before(async function () {
    this.timeout(300_000);
    // The types come from the document the server serves, as a user would fetch it.
    const served = await get("/api/docs/?format=openapi&api_version=1.3");
    const documentPath = join(mkdtempSync(join(tmpdir(), "typed-client-")), "inventory-1.3.json");
    writeFileSync(documentPath, served.text);
    const { generateTypes } = await load<{ generateTypes: (path: string) => Promise<string[]> }>("generate-types.ts");
    await generateTypes(documentPath);
  });

  it("type-checks the example with tsc --strict", async function () {
    this.timeout(300_000);
    const result = await promisify(execFile)(tsc, ["-p", dir], { cwd: dir }).catch((err: { stdout?: string; stderr?: string }) => err);
    expect(`${result.stdout ?? ""}${result.stderr ?? ""}`.trim()).to.equal("");
  });

  it("runs the example against the server: full lists, brief lists, one create, a bulk create", async () => {
    const server = await startTestServer();
    const { tour } = await load<{ tour: (url: string, token: string, suffix: string) => Promise<TourResult> }>("example.ts");
    const suffix = `tc${Date.now().toString(36)}`;
    const result = await tour(server.url, server.token, suffix);
    expect(result.sites).to.not.be.empty;
    for (const d of result.devices) expect(d.site).to.be.a("string").and.not.equal("");
    expect(result.briefDevices).to.not.be.empty;
    expect(result.created).to.equal(`Typed ${suffix}`);
    expect(result.renamed).to.equal("made by the typed client");
    expect(result.bulkCreated).to.deep.equal([`typed-${suffix}-1`, `typed-${suffix}-2`]);
    expect(await rows("dcim_manufacturer", { slug: `typed-${suffix}` })).to.equal(0);
  });

  it("documents the full form as the GET's reply and the brief form apart", async () => {
    const doc = (await get("/api/docs/?format=openapi&api_version=1.3")).body;
    const list = doc.paths["/api/dcim/devices/"];
    expect(list.get.responses["200"].content["application/json"].schema).to.deep.equal({ $ref: "#/components/schemas/PaginatedDeviceList" });
    expect(list.get["x-brief"].responses["200"].content["application/json"].schema).to.deep.equal({ $ref: "#/components/schemas/PaginatedBriefDeviceList" });
    expect(doc.components.schemas.PaginatedDeviceList.properties.results.items).to.deep.equal({ $ref: "#/components/schemas/Device" });
    const sites = doc.paths["/api/dcim/sites/"].post;
    expect(sites.requestBody.content["application/json"].schema).to.deep.equal({ $ref: "#/components/schemas/WritableSiteRequest" });
    expect(sites.responses["201"].content["application/json"].schema).to.deep.equal({ $ref: "#/components/schemas/Site" });
    expect(sites["x-bulk"].responses["201"].content["application/json"].schema).to.deep.equal({ type: "array", items: { $ref: "#/components/schemas/Site" } });
  });
});
