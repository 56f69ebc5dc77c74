// Recorded sessions of real clients (pynautobot, pynetbox, a WordPress-style calendar client)
// against this server, replayed through a validator of the emitted OpenAPI documents: every
// exchange must be one its version's document describes (path, method, status, the query and
// body the server took, the reply's media type and body), as a validating proxy would judge
// it. The sessions are committed JSON (test/support/record-session.ts made them); no server
// runs here. ajv, not Prism: see the commit that added this file.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { apis } from "../../generated/server.js";
import type { ApiDescriptor } from "../../runtime/descriptor.js";
import { Contract } from "../support/contract.js";
import type { Exchange, Session } from "../support/session.js";

const DIR = join(import.meta.dirname, "sessions");
/** Where the calendar's namespace is mounted in the recordings (the default WP_API_ROOT). */
const WP_ROOT = "/wp-json";

function contract(api: ApiDescriptor, version: string): Contract {
  return Contract.of(`${api.name}-${version}.json`, () => api.openapi[version] as Record<string, unknown>);
}

/** The API an exchange went to, its document's version, and its path as the document writes paths. */
function route(x: Exchange): { api: ApiDescriptor; version: string; path: string } {
  const path = x.path.split("?")[0];
  for (const api of apis) {
    if (api.profile === "wordpress") {
      const ns = `${WP_ROOT}/${api.basePath.replace(/^\/|\/$/g, "")}`;
      if (path === ns || path.startsWith(`${ns}/`)) return { api, version: api.versions.default, path: path.slice(ns.length) || "/" };
    } else if (path.startsWith(api.basePath)) {
      // A refused version has no API-Version header; its reply is documented under every version.
      return { api, version: x.response.headers["api-version"] ?? api.versions.default, path };
    }
  }
  throw new Error(`no API serves ${x.path}`);
}

function violations(x: Exchange): string[] {
  const { api, version, path } = route(x);
  const query = x.path.includes("?") ? x.path.slice(x.path.indexOf("?")) : "";
  return contract(api, version).violations({ ...x, path: `${path}${query}` });
}

const sessions: Session[] = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Session);

describe("recorded client sessions replayed against the emitted OpenAPI documents", function () {
  this.timeout(120_000);

  it("has sessions of each client, covering OPTIONS, bulk updates and both inventory versions", () => {
    const all = sessions.flatMap((s) => s.exchanges);
    expect(sessions.map((s) => s.client.split(":")[0])).to.include.members(["pynautobot 1.5.5", "pynetbox 7"]);
    expect(all.some((x) => x.method === "OPTIONS" && x.response.status === 200)).to.equal(true);
    expect(all.some((x) => x.method === "PATCH" && Array.isArray(x.request.body) && x.response.status === 200)).to.equal(true);
    expect(new Set(all.map((x) => x.response.headers["api-version"]).filter(Boolean))).to.include.members(["1.2", "1.3"]);
  });

  for (const session of sessions) {
    it(`${session.client}: ${session.exchanges.length} exchanges, each described by its document`, () => {
      const problems = session.exchanges.flatMap(violations);
      expect(problems, problems.slice(0, 10).join("\n\n")).to.deep.equal([]);
    });
  }

  describe("the validator can fail", () => {
    const all = sessions.flatMap((s) => s.exchanges);
    const sample = (test: (x: Exchange) => boolean) => structuredClone(all.find(test)!);

    it("catches a reply missing a required field", () => {
      const x = sample((e) => e.method === "GET" && e.response.status === 200 && Array.isArray((e.response.body as { results?: unknown[] })?.results)
        && (e.response.body as { results: unknown[] }).results.length > 0);
      delete ((x.response.body as { results: Array<Record<string, unknown>> }).results[0]).id;
      expect(violations(x).join("\n")).to.match(/must have required property 'id'/);
    });

    it("catches an undocumented status, and a body where none is documented", () => {
      const x = sample((e) => e.method === "DELETE" && e.response.status === 204);
      expect(violations({ ...x, response: { ...x.response, status: 418 } }).join("\n")).to.match(/status 418 is undocumented/);
      expect(violations({ ...x, response: { ...x.response, body: "gone" } }).join("\n")).to.match(/documents no body/);
    });

    it("catches a write the document refuses though the server is said to have taken it", () => {
      const x = sample((e) => e.method === "POST" && e.response.status === 201 && !Array.isArray(e.request.body) && e.path.startsWith("/api/"));
      expect(violations({ ...x, request: { ...x.request, body: [42] } }).join("\n")).to.match(/request body refused/);
    });
  });
});
