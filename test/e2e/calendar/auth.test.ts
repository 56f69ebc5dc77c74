// Authentication of the calendar API: application passwords over HTTP Basic (made by the
// endpoint), the identity API's token header, and bad credentials.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { get, post } from "../../support/http.js";
import { NS, basic } from "./support.js";

describe("calendar: authentication", () => {
  it("creates an application password and accepts it over HTTP Basic", async () => {
    const made = await post("/wp-json/wp/v2/users/me/application-passwords", { name: "tests" });
    expect(made.status).to.equal(201);
    expect(made.body.name).to.equal("tests");
    expect(made.body.password).to.match(/^[0-9a-f]{4}( [0-9a-f]{4}){5}$/);
    const server = await startTestServer();
    const row = await server.db("auth_applicationpassword").where("id", Number(made.body.uuid)).first();
    expect(row.password).to.match(/^scrypt\$/);
    const res = await post(`${NS}/events`, { title: "Basic event", start_date: "2030-04-01", end_date: "2030-04-01" }, { token: null, headers: basic("admin", made.body.password) });
    expect(res.status).to.equal(201);
    expect(res.body.status).to.equal("publish");
    const compact = await get(`${NS}/events?status=draft`, { token: null, headers: basic("admin", made.body.password.replace(/ /g, "")) });
    expect(compact.status).to.equal(200);
    expect((await server.db("auth_applicationpassword").where("id", row.id).first()).last_used).to.not.equal(null);
  });

  it("refuses wrong passwords, unknown users and anonymous endpoint calls", async () => {
    const wrong = await get(`${NS}/events`, { token: null, headers: basic("admin", "admin-password") });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.code).to.equal("incorrect_password");
    expect((await get(`${NS}/events`, { token: null, headers: basic("nobody", "x") })).status).to.equal(401);
    expect((await get(`${NS}/events`, { token: "not-a-token" })).status).to.equal(401);
    expect((await post("/wp-json/wp/v2/users/me/application-passwords", { name: "x" }, { token: null })).status).to.equal(401);
    expect((await post("/wp-json/wp/v2/users/me/application-passwords", {})).body.code).to.equal("rest_missing_callback_param");
  });
});
