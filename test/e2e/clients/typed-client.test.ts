// The typed-client example (docs/clients/typed-client/) as a user would run it: types made by
// openapi-typescript from the documents served with one exchange per operation (`form=full`,
// `brief`, `bulk`), the example type-checked by tsc --strict, then run against the real server.
// Its replies must be what its types say, so it also checks that those documents keep the full
// and brief forms, and one-object and bulk creates, apart, and the served one has them all.
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
    // The types come from the documents the server serves, as a user would fetch them.
    const folder = mkdtempSync(join(tmpdir(), "typed-client-"));
    const documents: Record<string, string> = {};
    for (const form of ["full", "brief", "bulk"]) {
      const served = await get(`/api/docs/?format=openapi&api_version=1.3&form=${form}`);
      expect(served.status).to.equal(200);
      documents[form] = join(folder, `inventory-1.3-${form}.json`);
      writeFileSync(documents[form], served.text);
    }
    const { generateTypes } = await load<{ generateTypes: (documents: Record<string, string>) => Promise<string[]> }>("generate-types.ts");
    await generateTypes(documents);
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

  it("serves every exchange in one document, and each form's in a document of its own", async () => {
    const doc = async (form: string) => (await get(`/api/docs/?format=openapi&api_version=1.3${form}`)).body;
    const schema = (holder: { content: Record<string, { schema: unknown }> }) => holder.content["application/json"].schema;
    const $ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const all = await doc("");
    expect(schema(all.paths["/api/dcim/devices/"].get.responses["200"])).to.deep.equal({ anyOf: [$ref("PaginatedDeviceList"), $ref("PaginatedBriefDeviceList")] });
    expect(schema(all.paths["/api/dcim/sites/"].post.requestBody)).to.deep.equal({ oneOf: [$ref("WritableSiteRequest"), { type: "array", items: $ref("WritableSiteRequest") }] });
    expect(schema(all.paths["/api/dcim/sites/"].post.responses["201"])).to.deep.equal({ oneOf: [$ref("Site"), { type: "array", items: $ref("Site") }] });
    expect(JSON.stringify(all)).to.not.match(/"x-(brief|bulk)"/);

    const one = await doc("&form=full");
    expect(schema(one.paths["/api/dcim/devices/"].get.responses["200"])).to.deep.equal($ref("PaginatedDeviceList"));
    expect(schema(one.paths["/api/dcim/sites/"].post.requestBody)).to.deep.equal($ref("WritableSiteRequest"));
    expect(schema(one.paths["/api/dcim/sites/"].post.responses["201"])).to.deep.equal($ref("Site"));
    expect(one.components.schemas.PaginatedDeviceList.properties.results.items).to.deep.equal($ref("Device"));

    const briefs = await doc("&form=brief");
    expect(briefs.paths["/api/dcim/devices/"].get.operationId).to.equal("dcim_devices_list_brief");
    expect(schema(briefs.paths["/api/dcim/devices/"].get.responses["200"])).to.deep.equal($ref("PaginatedBriefDeviceList"));
    expect(schema(briefs.paths["/api/dcim/devices/{id}/"].get.responses["200"])).to.deep.equal($ref("BriefDevice"));
    expect(briefs.paths["/api/dcim/sites/"]).to.not.have.property("post");

    const lists = await doc("&form=bulk");
    expect(schema(lists.paths["/api/dcim/sites/"].post.requestBody)).to.deep.equal({ type: "array", items: $ref("WritableSiteRequest") });
    expect(schema(lists.paths["/api/dcim/sites/"].post.responses["201"])).to.deep.equal({ type: "array", items: $ref("Site") });
    expect(lists.paths["/api/dcim/sites/"]).to.not.have.property("get");
  });
});
