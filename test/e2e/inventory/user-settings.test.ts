// Each user's own settings at /api/users/config/ (Nautobot's UserConfigViewSet): read by GET,
// merged into by PATCH (objects key by key), seen by no one else; replies as documented.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import { Contract } from "../../support/contract.js";
import { call, get, patch } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { uniq } from "./support.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, unknown>, "user-settings.json");
const CONFIG = "/api/users/config/";

describe("inventory e2e: users' own settings", () => {
  it("starts empty, merges each PATCH into what is there, and is each user's own", async () => {
    const server = await startTestServer();
    const alice = await server.user(uniq("cfg-alice"));
    const bob = await server.user(uniq("cfg-bob"));
    const first = await get(CONFIG, { token: alice.key });
    contract.check("get", CONFIG, first);
    expect([first.status, first.body]).to.deep.equal([200, {}]);
    const steps: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ tables: { DeviceTable: { columns: ["name", "status"] } }, theme: "dark" }, { tables: { DeviceTable: { columns: ["name", "status"] } }, theme: "dark" }],
      [{ tables: { SiteTable: { columns: ["name"] } }, theme: "light" },
        { tables: { DeviceTable: { columns: ["name", "status"] }, SiteTable: { columns: ["name"] } }, theme: "light" }],
      // An empty object replaces what was there, as Nautobot's deepmerge does.
      [{ tables: {} }, { tables: {}, theme: "light" }],
    ];
    for (const [body, after] of steps) {
      const res = await patch(CONFIG, body, { token: alice.key });
      contract.check("patch", CONFIG, res);
      expect([res.status, res.body]).to.deep.equal([200, after]);
    }
    expect((await get(CONFIG, { token: alice.key })).body).to.deep.equal({ tables: {}, theme: "light" });
    expect((await get(CONFIG, { token: bob.key })).body).to.deep.equal({});
    expect((await server.db("users_user").where("id", alice.id).first()).config_data).to.deep.equal({ tables: {}, theme: "light" });
  });

  it("needs a user, a write-enabled token to change, and a JSON object", async () => {
    const server = await startTestServer();
    expect((await get(CONFIG, { token: null })).status).to.equal(403);
    const reader = await server.user(uniq("cfg-ro"), { writeEnabled: false });
    expect((await patch(CONFIG, { a: 1 }, { token: reader.key })).status).to.equal(403);
    const writer = await server.user(uniq("cfg-rw"));
    const list = await patch(CONFIG, [1], { token: writer.key });
    contract.check("patch", CONFIG, list);
    expect([list.status, list.body]).to.deep.equal([400, { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] }]);
    expect((await call("PUT", CONFIG, { token: writer.key, body: {} })).status).to.equal(405);
    expect((await get(CONFIG, { token: writer.key })).body).to.deep.equal({});
    expect((await get("/api/users/")).body.config).to.match(/\/api\/users\/config\/$/);
  });
});
