// The served OpenAPI document describes every exchange the server accepts, as a validating proxy
// (Prism) in front of it must judge them: a bulk create, a brief list and a bulk PATCH pass with
// no violation, checked by the contract (ajv over the document the server serves). The documents
// derived for typed clients (`form=`) each describe one exchange per operation, so the served
// one is the document a proxy needs.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import { FORMS, servedDocument } from "../../../runtime/profiles/drf/documents.js";
import { Contract } from "../../support/contract.js";
import { call, get } from "../../support/http.js";
import type { Exchange } from "../../support/session.js";
import { rows, uniq } from "./support.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const MANUFACTURERS = "/api/dcim/manufacturers/";

/** One request and its reply, as the session recorder keeps them. */
async function exchange(method: string, path: string, body?: unknown): Promise<Exchange> {
  const reply = await call(method, path, body === undefined ? {} : { body });
  return {
    method, path,
    request: { headers: body === undefined ? {} : { "content-type": "application/json" }, body: body ?? null },
    response: { status: reply.status, headers: { "content-type": reply.headers.get("content-type") ?? "" }, body: reply.body },
  };
}

async function servedContract(query = ""): Promise<Contract> {
  const served = await get(`/api/docs/?format=openapi${query}`);
  expect(served.status).to.equal(200);
  return new Contract(served.body, `served${query}.json`);
}

describe("inventory e2e: the served OpenAPI document passes every exchange a proxy sees", () => {
  it("a bulk create, a brief list and a bulk PATCH, with no violation", async () => {
    const contract = await servedContract();
    const slug = uniq("oax");
    const created = await exchange("POST", MANUFACTURERS, [1, 2].map((n) => ({ name: `${slug} ${n}`, slug: `${slug}-${n}` })));
    expect(created.response.status).to.equal(201);
    const made = created.response.body as Array<{ id: string }>;
    expect(made).to.have.length(2);
    const briefList = await exchange("GET", `${MANUFACTURERS}?brief=1&limit=5`);
    expect(briefList.response.status).to.equal(200);
    expect(Object.keys((briefList.response.body as { results: object[] }).results[0])).to.not.include("created");
    const briefOne = await exchange("GET", `${MANUFACTURERS}${made[0].id}/?brief=true`);
    expect(briefOne.response.status).to.equal(200);
    const patched = await exchange("PATCH", MANUFACTURERS, made.map((m) => ({ id: m.id, description: "patched in bulk" })));
    expect(patched.response.status).to.equal(200);
    const one = await exchange("POST", MANUFACTURERS, { name: `${slug} 3`, slug: `${slug}-3` });
    expect(one.response.status).to.equal(201);
    for (const x of [created, briefList, briefOne, patched, one]) expect(contract.violations(x), `${x.method} ${x.path}`).to.deep.equal([]);
    expect(await rows("dcim_manufacturer", { description: "patched in bulk" })).to.equal(2);

    // The document refuses what the server refuses: a bulk element without its name.
    expect(contract.acceptsBody("post", MANUFACTURERS, [{ slug: `${slug}-4` }])).to.equal(false);
    // A document with one exchange per operation would not pass the bulk create or the brief list.
    const full = await servedContract("&form=full");
    expect(full.violations(created)).to.not.deep.equal([]);
    expect(full.violations(briefList)).to.not.deep.equal([]);
    expect(full.violations(one)).to.deep.equal([]);
    const bulk = await servedContract("&form=bulk");
    expect(bulk.violations(created)).to.deep.equal([]);
    const brief = await servedContract("&form=brief");
    expect(brief.violations(briefList)).to.deep.equal([]);
    expect(brief.violations(briefOne)).to.deep.equal([]);
  });

  it("serves each documented form at every document path, and refuses an unknown one with 404", async () => {
    const served = inventory.openapi[inventory.versions.default] as Record<string, any>;
    const formParam = (path: string) => (served.paths[path].get.parameters as Array<{ $ref: string }>)
      .map((p) => served.components.parameters[p.$ref.split("/").at(-1)!]).find((p) => p.name === "form");
    for (const path of ["/api/docs/", "/api/swagger.json", "/api/swagger.yaml", "/api/swagger/"]) {
      expect(formParam(path).schema.enum, path).to.deep.equal([...FORMS]);
    }
    const contract = new Contract(served, "forms.json");
    for (const form of FORMS) {
      const json = await get(`/api/swagger.json?form=${form}`);
      expect(json.status, form).to.equal(200);
      expect(json.body.info.version).to.equal(inventory.versions.default);
      const yaml = await get(`/api/swagger.yaml?form=${form}&api_version=1.3`);
      expect(yaml.status, form).to.equal(200);
      expect(yaml.headers.get("content-type")).to.match(/^application\/vnd\.oai\.openapi/);
      expect(yaml.text).to.include(form === "full" ? "operationId: dcim_devices_list\n" : `operationId: dcim_devices_${form === "brief" ? "list" : "create"}_${form}\n`);
    }
    for (const path of ["/api/docs/?format=openapi&form=nope", "/api/swagger.json?form=nope", "/api/swagger/?form=nope"]) {
      const reply = await get(path);
      expect(reply.status, path).to.equal(404);
      contract.check("get", path.split("?")[0], reply);
    }
    expect((await get("/api/swagger.json?form=")).text).to.equal(JSON.stringify(servedDocument(inventory, inventory.versions.default, undefined)));
  });
});
