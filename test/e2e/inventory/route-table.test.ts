// The generated route table (ApiDescriptor.drfRoutes) is what the DRF profile serves: each
// entry answers at its view (an OPTIONS a view answers, never the generic 404), no entry is
// shadowed by another, each version's served OpenAPI document describes exactly the table's
// entries (redirects aside) with their methods, and a path outside the table is the 404.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import type { DrfRoute, DrfView } from "../../../runtime/descriptor.js";
import { RouteTable } from "../../../runtime/profiles/drf/routes.js";
import { call } from "../../support/http.js";
import { MISSING_ID } from "./support.js";

const api = apis.find((a) => a.profile === "drf")!;
const routes = api.drfRoutes!;
const table = new RouteTable(routes);
/** What every route answers besides its methods (HEAD with GET), and a path item's shared parameters. */
const IMPLIED = new Set(["OPTIONS", "HEAD", "PARAMETERS"]);
/** The views that take POST alone, and say so to an OPTIONS: every other view answers it with its metadata. */
const NO_OPTIONS = new Set<DrfView>(["logout", "graphql"]);

/** The route's path with its placeholders filled: an id no object has, or a name. */
const filled = (r: DrfRoute) => r.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === "id" ? MISSING_ID : "x"));

describe("inventory e2e: the route table", () => {
  it("covers every kind of view, each path once", () => {
    const views = new Set(routes.map((r) => r.view));
    for (const v of ["root", "app-root", "list", "detail", "listing", "action", "notes", "settings", "status", "docs", "redoc", "swagger", "graphql", "login", "logout", "filterset-fields", "redirect", "plugins", "installed-plugins"]) {
      expect(views, v).to.include(v);
    }
    const paths = routes.map((r) => r.path);
    expect(paths.length).to.equal(new Set(paths).size);
  });

  it("matches each entry's own path to that entry, with its placeholders", () => {
    for (const r of routes) {
      const found = table.match(filled(r), r.except?.includes("GET") ? "PUT" : "GET");
      expect(found?.route, r.path).to.equal(r);
      expect(Object.keys(found!.params)).to.deep.equal(r.params);
    }
  });

  it("serves every entry at its view", async function () {
    this.timeout(300000);
    const replies = [];
    // A few at a time: the answers are independent, and one by one they take the longest.
    for (let i = 0; i < routes.length; i += 8) {
      replies.push(...await Promise.all(routes.slice(i, i + 8).map((r) => call("OPTIONS", `${api.basePath}${filled(r)}`))));
    }
    for (const [i, r] of routes.entries()) {
      const reply = replies[i];
      // The shared server enables no app (PLUGINS): an app's routes are the API's 404 (test/e2e/inventory/apps.test.ts serves them).
      if (r.plugin) {
        expect([reply.status, reply.body], r.path).to.deep.equal([404, { detail: "Not found." }]);
        continue;
      }
      if (r.view === "redirect") {
        expect(reply.status, r.path).to.equal(302);
        expect(reply.headers.get("location"), r.path).to.match(/\/$/);
        continue;
      }
      // Sign-out and GraphQL take POST alone, and say so; every other view answers OPTIONS.
      if (NO_OPTIONS.has(r.view)) {
        expect([reply.status, reply.headers.get("allow")], r.path).to.deep.equal([405, "POST, OPTIONS"]);
        continue;
      }
      expect(reply.status, `${r.path}: ${reply.text.slice(0, 200)}`).to.equal(200);
      const allowed = (reply.headers.get("allow") ?? "").split(", ");
      // Every view that answers GET also answers HEAD, and its Allow names every method the table gives it.
      for (const m of r.methods) expect(allowed, r.path).to.include(m).and.include(m === "GET" ? "HEAD" : m);
    }
  });

  it("holds every path and method the OpenAPI documents describe", () => {
    for (const [version, document] of Object.entries(api.openapi)) {
      const paths = (document as { paths: Record<string, Record<string, unknown>> }).paths;
      for (const [path, operations] of Object.entries(paths)) {
        const below = path.slice(api.basePath.length).replace(/\{[^}]+\}/g, "x");
        for (const method of Object.keys(operations).map((k) => k.toUpperCase()).filter((k) => !IMPLIED.has(k))) {
          const found = table.match(below, method);
          expect(found, `${version} ${method} ${path}`).to.not.equal(undefined);
          expect(found!.route.methods, `${version} ${method} ${path}`).to.include(method);
        }
      }
    }
  });

  it("documents exactly the table in each version's served document: every entry but the redirects, with its methods", async () => {
    const documented = routes.filter((r) => r.view !== "redirect" && !r.plugin);
    for (const version of api.versions.supported) {
      const reply = await call("GET", `${api.basePath}swagger.json?api_version=${version}`);
      expect(reply.status, version).to.equal(200);
      const paths = (reply.body as { paths: Record<string, Record<string, unknown>> }).paths;
      expect(Object.keys(paths).sort(), version).to.deep.equal(documented.map((r) => `${api.basePath}${r.path}`).sort());
      for (const r of documented) {
        const methods = Object.keys(paths[`${api.basePath}${r.path}`]).filter((k) => k !== "parameters").map((k) => k.toUpperCase());
        // HEAD goes with GET undocumented; OPTIONS is documented where the view answers it.
        const expected = [...r.methods, ...(NO_OPTIONS.has(r.view) ? [] : ["OPTIONS"])];
        expect(methods.sort(), `${version} ${r.path}`).to.deep.equal(expected.sort());
      }
    }
  });

  it("answers a path outside the table with the 404", async () => {
    for (const path of ["nothing/", "dcim/devices/x/y/z/", `dcim/devices/${MISSING_ID}/notes`, "dcim", "extras/jobs/a//c/"]) {
      expect(table.match(path, "GET"), path).to.equal(undefined);
      const reply = await call("GET", `${api.basePath}${path}`);
      expect([reply.status, reply.body], path).to.deep.equal([404, { detail: "Not found." }]);
    }
  });
});
