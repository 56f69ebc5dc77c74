// Reads answered with the JSON text PostgreSQL writes (runtime/query/json-text.ts): for every
// model, version and form, the text is byte for byte what rendering the same rows in JavaScript
// gives; and the server sends a detail and a list without parsing or stringifying the answer.
import { expect } from "chai";
import { Engine } from "../../../runtime/engine.js";
import type { FilterPlan } from "../../../runtime/query/filters.js";
import { JsonText } from "../../../runtime/query/json-text.js";
import type { ReadOptions } from "../../../runtime/store.js";
import { apis } from "../../../generated/server.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { jsonCalls } from "../../support/json-calls.js";
import { maker, type Maker } from "../../support/made.js";

const inventory = apis.find((a) => a.name === "inventory")!;
const everyRow: FilterPlan = { apply: (qb) => qb, checks: [], order: [], valueSensitive: false };
const API_URL = "http://inventory.test/api/";

describe("JSON written by PostgreSQL", function () {
  let server: TestServer;
  let engine: Engine;
  /** The objects made here, which a first page need not show. */
  const made: Array<[string, string]> = [];
  let vrfId = "";
  let post: Maker["post"];
  /** What other files sharing this server must not see: definitions that show on every object of a model. */
  let removeDefinitions: Maker["removeDefinitions"];
  /** Text only the made prefix's answer holds. */
  const token = `json-body-${Math.random().toString(36).slice(2, 10)}`;
  const actor = { userId: null, username: "json-text", requestId: "json-text", context: "test", contextDetail: "" };

  before(async () => {
    server = await startTestServer();
    engine = new Engine(inventory, server.db);
    // Rows the demo data has none of: a tagged prefix, custom field values, a config context.
    ({ post, removeDefinitions } = maker(server));
    const suffix = Math.random().toString(36).slice(2, 8);
    await post("extras/custom-fields/", { name: `cf_${suffix}`, label: `CF ${suffix}`, type: "text", content_types: ["ipam.prefix", "dcim.site"] });
    await post("extras/custom-fields/", { name: `n_${suffix}`, label: `N ${suffix}`, type: "integer", content_types: ["ipam.prefix"] });
    const tag = await post("extras/tags/", { name: `Json ${suffix}`, slug: `json-${suffix}`, content_types: ["ipam.prefix"] });
    // In a VRF of its own, as other files sharing the server make prefixes too.
    const vrf = await post("ipam/vrfs/", { name: `json ${suffix}` });
    const prefix = await post("ipam/prefixes/", {
      vrf: vrf.id, prefix: "10.249.0.0/24", status: "active", tags: [tag.id], description: `${token} quote \" backslash \\ tab \t é ☃ \u0001`,
      custom_fields: { [`cf_${suffix}`]: "line\nbreak", [`n_${suffix}`]: 12345678901 },
    });
    const peer = await post("ipam/prefixes/", { vrf: vrf.id, prefix: "10.249.1.0/24", status: "active" });
    const site = await post("dcim/sites/", { name: `Json ${suffix}`, status: "active" });
    // Relationships of each kind, labelled and not, with objects at their ends (one of them gone).
    const relate = async (body: Record<string, unknown>, pairs: Array<[string, string]>) => {
      const r = await post("extras/relationships/", body);
      for (const [source, destination] of pairs) {
        await post("extras/relationship-associations/", {
          relationship: r.id, source_type: r.source_type, source_id: source, destination_type: r.destination_type, destination_id: destination,
        });
      }
    };
    await relate({ name: `json ${suffix} sites`, source_type: "dcim.site", destination_type: "ipam.prefix", source_label: "Home \"site\"" }, [[site.id, prefix.id], [site.id, peer.id]]);
    await relate({ name: `json ${suffix} peers`, type: "symmetric-many-to-many", source_type: "ipam.prefix", destination_type: "ipam.prefix" }, [[prefix.id, peer.id]]);
    await relate({ name: `json_${suffix}_one`, type: "one-to-one", source_type: "ipam.prefix", destination_type: "dcim.site" }, [[peer.id, site.id]]);
    const gone = await post("ipam/prefixes/", { vrf: vrf.id, prefix: "10.249.2.0/24", status: "active" });
    await relate({ name: `json ${suffix} gone`, type: "one-to-many", source_type: "ipam.prefix", destination_type: "ipam.prefix" }, [[prefix.id, gone.id]]);
    await server.db("ipam_prefix").where("id", gone.id).del();
    made.push(["ipam.prefix", prefix.id], ["ipam.prefix", peer.id], ["dcim.site", site.id]);
    vrfId = vrf.id;
    await post("extras/config-contexts/", { name: `ctx ${suffix}`, weight: 100, data: { b: 1.5, "10": [1e-7, 1e20, true, null], a: { z: "x" }, "2": 0.000001 } });
  });

  after(() => removeDefinitions());

  it("is what rendering in JavaScript writes, for every model, version and form", async function () {
    this.timeout(600_000);
    const op = await engine.operations.read(actor);
    let compared = 0;
    const passedOver: string[] = [];
    for (const m of engine.index.api.models) {
      for (const version of engine.index.api.versions.supported) {
        for (const [shape, include] of [["full", []], ["brief", []], ["full", ["relationships"]]] as const) {
          const opts: ReadOptions = { shape, version, include: [...include], ctx: { apiUrl: API_URL }, unscoped: true };
          const page = { limit: 20, offset: 0 };
          const json = await engine.store.listJson(op, m, everyRow, page, opts);
          if (!json) {
            passedOver.push(`${m.key} ${version} ${shape}${include.length ? " relationships" : ""}`);
            continue;
          }
          const { count, results } = await engine.store.list(op, m, everyRow, page, opts);
          expect(json.count, m.key).to.equal(count);
          expect(json.results.text, `${m.key} ${version} ${shape}`).to.equal(JSON.stringify(results));
          if (shape === "full" && !include.length) {
            // Pages by cursor: the first, and the one its cursor names.
            let after: Array<string | null> = [];
            for (let n = 0; n < 2 && after; n++) {
              const keyset = { limit: 2, offset: 0, after };
              const text = await engine.store.listJson(op, m, everyRow, keyset, opts);
              const objects = await engine.store.list(op, m, everyRow, keyset, opts);
              expect(text!.results.text, `${m.key} ${version} cursor page ${n}`).to.equal(JSON.stringify(objects.results));
              expect(text!.cursor).to.deep.equal(objects.cursor);
              after = objects.cursor!;
            }
          }
          if (results.length && results[0].id !== undefined) {
            const one = await engine.store.fetchJson(op, m, String(results[0].id), opts);
            expect(one, `${m.key} ${version} ${shape} detail of ${results[0].id}`).to.be.instanceOf(JsonText);
            expect((one as JsonText).text, `${m.key} ${version} ${shape} detail`).to.equal(JSON.stringify(results[0]));
            compared++;
          }
        }
      }
    }
    for (const [key, id] of made) {
      for (const version of engine.index.api.versions.supported) {
        const opts: ReadOptions = { shape: "full", version, include: ["relationships"], ctx: { apiUrl: API_URL }, unscoped: true };
        const [obj] = await engine.store.fetch(op, engine.index.model(key), [id], opts);
        const text = (await engine.store.fetchJson(op, engine.index.model(key), id, opts) as JsonText).text;
        expect(text).to.equal(JSON.stringify(obj));
        expect(Object.keys(obj.relationships as object), key).to.have.length.greaterThan(0);
      }
    }
    expect(compared).to.be.greaterThan(250);
    // Only what JavaScript must decide: a version that promised one object, where a list may hold several.
    expect(passedOver).to.deep.equal(["ipam.ipaddress 1.2 full", "ipam.ipaddress 1.2 full relationships"]);
  });

  it("sends a detail and a list without parsing or stringifying the answer", async () => {
    const headers = { Authorization: `Token ${server.token}`, Accept: "application/json" };
    const [, id] = made[0];
    const { result: bodies, seen } = await jsonCalls(async () => {
      const texts: string[] = [];
      for (const path of [`ipam/prefixes/${id}/`, `ipam/prefixes/?prefix=10.249.0.0/24&vrf_id=${vrfId}`, `ipam/prefixes/${id}/?api_version=1.2`]) {
        const res = await fetch(`${server.url}/api/${path}`, { headers });
        expect(res.status).to.equal(200);
        expect(res.headers.get("content-type")).to.equal("application/json; charset=utf-8");
        texts.push(await res.text());
      }
      return texts;
    });
    expect(seen.filter((s) => s.includes(token))).to.deep.equal([]);
    const [detail, list, older] = bodies.map((b) => JSON.parse(b));
    expect(detail.description.startsWith(token)).to.equal(true);
    expect(detail.url).to.equal(`${server.url}/api/ipam/prefixes/${id}/`);
    expect(list.count).to.equal(1);
    expect(list.results).to.deep.equal([detail]);
    expect(bodies[1]).to.equal(`{"count":1,"next":null,"previous":null,"results":[${bodies[0]}]}`);
    expect(older.id).to.equal(id);
  });

  // A filter whose values decide how many rows it selects has its rows chosen and counted by
  // statements written with those values (runtime/db/with-values.ts) inside the list's own:
  // the same pages and counts as the list that selects them itself, for values with a quote, a
  // backslash and a question mark in them.
  it("chooses a value-sensitive page apart: the same pages and count as the list choosing it itself", async () => {
    const op = await engine.operations.read(actor);
    const m = engine.index.model("ipam.prefix");
    const opts: ReadOptions = { shape: "full", version: inventory.versions.default, include: [], ctx: { apiUrl: API_URL }, unscoped: true };
    const described = (valueSensitive: boolean, pattern: string): FilterPlan => ({
      apply: (qb) => qb.whereRaw("t0.prefix << ?::inet AND t0.vrf_id = ? AND t0.description LIKE ?", ["10.249.0.0/16", vrfId, pattern]),
      checks: [], order: [], valueSensitive,
    });
    const sent: string[] = [];
    const listen = (q: { sql: string }) => sent.push(q.sql);
    server.db.on("query", listen);
    const backslash = "\\";
    const counts: number[] = [];
    try {
      for (const pattern of [`${token} quote " backslash ${backslash}${backslash}%`, "%'?%", "%"]) {
        for (const offset of [0, 1, 2]) {
          const page = { limit: 1, offset };
          const apart = await engine.store.listJson(op, m, described(true, pattern), page, opts);
          const itself = await engine.store.listJson(op, m, described(false, pattern), page, opts);
          expect([apart!.count, apart!.results.text], `${pattern} at ${offset}`).to.deep.equal([itself!.count, itself!.results.text]);
          // Rendered in JavaScript, the page is chosen apart too.
          const rendered = await engine.store.list(op, m, described(true, pattern), page, opts);
          expect([rendered.count, JSON.stringify(rendered.results)], `${pattern} at ${offset}, rendered`).to.deep.equal([itself!.count, itself!.results.text]);
          if (offset === 0) counts.push(apart!.count);
        }
      }
    } finally {
      server.db.removeListener("query", listen);
    }
    // The made prefix by its description; none; it and its peer (the third is gone).
    expect(counts).to.deep.equal([1, 0, 2]);
    expect(sent.filter((sql) => sql.includes("armature_chosen(")).length).to.equal(18);
  });

  it("builds an unfiltered read's statement once: later requests only bind their values", async () => {
    const headers = { Authorization: `Token ${server.token}`, Accept: "application/json" };
    const paths = [...made.filter(([key]) => key === "ipam.prefix").map(([, id]) => `ipam/prefixes/${id}/`), "ipam/prefixes/?limit=3", "ipam/prefixes/?limit=3&offset=3"];
    const builder = Object.getPrototypeOf(server.db.queryBuilder()) as { toSQL: (...args: unknown[]) => unknown };
    const toSQL = builder.toSQL;
    let built = 0;
    const read = async () => {
      for (const path of paths) expect((await fetch(`${server.url}/api/${path}`, { headers })).status).to.equal(200);
    };
    await read();
    builder.toSQL = function (this: unknown, ...args: unknown[]) {
      const compiled = toSQL.apply(this, args) as { sql: string };
      // Not the token's check: a token is trusted for a second (TOKEN_TRUST_MS), which the
      // second read can outlast on a loaded machine, and then checked by a statement of its own.
      if (!compiled.sql.includes('"users_token"')) built++;
      return compiled;
    };
    try {
      await read();
    } finally {
      builder.toSQL = toSQL;
    }
    expect(built).to.equal(0);
  });
});
