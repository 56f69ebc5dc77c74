// The calendar API is served from its generated route table: every endpoint of every route
// answers its methods (reads as the admin; writes reach their view, which refuses an
// anonymous client before writing anything), OPTIONS describes each route, a method the
// table does not give a route is rest_no_route, and so is any path beside the table's.
import { expect } from "chai";
import { calendar } from "../../../generated/calendar/index.js";
import { call, get } from "../../support/http.js";

const ROOT = "/wp-json";
const routes = calendar.routes ?? [];

/** A concrete path for a route: its `id` the first record's, its `slug` that record's slug. */
async function pathOf(regex: string): Promise<string> {
  if (!regex.includes("(?P<")) return `${ROOT}${regex}`;
  const byId = regex.replace(/\/by-slug\/\(\?P<slug>[^)]*\)$/, "/(?P<id>\\d+)");
  const list = (await get(`${ROOT}${byId.replace(/\/\(\?P<id>[^)]*\)$/, "")}?per_page=1`)).body;
  const first = Object.values(list as Record<string, unknown>).find(Array.isArray)![0] as { id: number; slug: string };
  return `${ROOT}${regex.replace(/\(\?P<id>[^)]*\)/, String(first.id)).replace(/\(\?P<slug>[^)]*\)/, encodeURIComponent(first.slug))}`;
}

describe("calendar: the route table drives the server", () => {
  it("has routes of every view kind", () => {
    const views = new Set(routes.flatMap((r) => r.endpoints.map((e) => e.view)));
    expect([...views].sort()).to.deep.equal(["archive", "create", "delete", "doc", "namespace", "read", "update"]);
  });

  for (const route of routes) {
    it(`serves ${route.regex} for every method its endpoints name, and nothing else`, async () => {
      const path = await pathOf(route.regex);
      const methods = route.endpoints.flatMap((e) => e.methods);
      for (const e of route.endpoints) {
        for (const method of e.methods) {
          if (method === "GET") {
            const res = await get(path);
            expect(res.status, `GET ${path}`).to.equal(200);
          } else {
            const res = await call(method, path, { token: null, body: {} });
            expect([res.status, res.body.code], `${method} ${path}`).to.deep.equal([401, "rest_forbidden"]);
          }
        }
      }
      const options = await call("OPTIONS", path, { token: null });
      expect(options.status).to.equal(200);
      expect(options.headers.get("allow")).to.equal([...new Set(methods)].join(", "));
      for (const method of ["PUT", "PATCH", "DELETE", "POST"].filter((m) => !methods.includes(m))) {
        const res = await call(method, path, { token: null, body: {} });
        expect([res.status, res.body.code], `${method} ${path}`).to.deep.equal([404, "rest_no_route"]);
      }
    });
  }

  it("answers rest_no_route beside the table, also under the application passwords route", async () => {
    for (const path of ["/calendar/events/v1/nothing", "/calendar/events/v1/events/1/more", "/calendar/events/v1/categories/by-slug/music", "/wp/v2/users/me/application-passwords/events"]) {
      const res = await get(`${ROOT}${path}`);
      expect([res.status, res.body.code], path).to.deep.equal([404, "rest_no_route"]);
    }
  });
});
