// `/api/status/` as Nautobot's: its keys first, in its order, with the release whose REST
// behaviour the server reproduces (`nautobot-version`, read by pynautobot's tooling and the
// Ansible collection); then the server's own facts. The reply has exactly the keys the
// OpenAPI document lists.
import { expect } from "chai";
import { get } from "../../support/http.js";

describe("inventory e2e: status", () => {
  it("reports Nautobot's keys and versions, then its own, exactly as documented", async () => {
    const res = await get("/api/status/");
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal([
      "django-version", "installed-apps", "nautobot-version", "plugins", "python-version", "rq-workers-running", "celery-workers-running",
      "armature-version", "api-versions", "node-version", "database-version",
    ]);
    expect(res.body).to.deep.include({ "nautobot-version": "1.5.24", "django-version": "3.2.20", plugins: {}, "rq-workers-running": 0, "celery-workers-running": 0 });
    expect(res.body["installed-apps"]).to.have.property("dcim", null);
    const doc = (await get("/api/swagger.json")).body;
    const schema = doc.paths["/api/status/"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(res.body).sort()).to.deep.equal([...schema.required].sort());
  });
});
