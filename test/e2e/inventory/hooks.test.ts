// Model hooks through the real server: the prefix and IP address hooks refuse a /0 mask as
// Nautobot's model clean() does — after field validation, as a 400 keyed by the field — and
// the refused write changes nothing, on create, PATCH and in a bulk create.
import { expect } from "chai";
import { patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { rows } from "./support.js";

describe("inventory e2e: model hooks", () => {
  before(startTestServer);

  it("a /0 prefix is refused by the prefix hook and nothing is stored", async () => {
    const before = await rows("ipam_prefix");
    const res = await post("/api/ipam/prefixes/", { prefix: "0.0.0.0/0", status: "active" });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ prefix: ["Cannot create prefix with /0 mask."] });
    expect(await rows("ipam_prefix")).to.equal(before);
  });

  it("field errors come first: the hook only runs on a body whose fields are valid", async () => {
    const res = await post("/api/ipam/prefixes/", { prefix: "::/0", status: "no-such-status" });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ status: ["Object with slug=no-such-status does not exist."] });
  });

  it("PATCH to /0 is refused and the stored prefix is unchanged", async () => {
    const created = await post("/api/ipam/prefixes/", { prefix: "10.250.0.0/16", status: "active" });
    expect(created.status).to.equal(201);
    const res = await patch(`/api/ipam/prefixes/${created.body.id}/`, { prefix: "::/0" });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ prefix: ["Cannot create prefix with /0 mask."] });
    const { db } = await startTestServer();
    expect((await db("ipam_prefix").where("id", created.body.id).first()).prefix).to.equal("10.250.0.0/16");
  });

  it("the IP address hook refuses a /0 address, and a bulk create with one is all-or-none", async () => {
    const before = await rows("ipam_ipaddress");
    const res = await post("/api/ipam/ip-addresses/", [
      { address: "192.0.2.10/24", status: "active" },
      { address: "192.0.2.11/0", status: "active" },
    ]);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal([{}, { address: ["Cannot create IP address with /0 mask."] }]);
    expect(await rows("ipam_ipaddress")).to.equal(before);
  });
});
