// How reads reach PostgreSQL: plans run as named prepared statements once they are hot, and
// the relationships sub-select holds only the models a relationship of the model names at
// its other end (none: a constant), re-checked by every statement so a new relationship
// shows at once.
import { expect } from "chai";
import type { Knex } from "knex";
import { del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { planOf, rowsTouched, statements, statementsOf } from "../../support/statements.js";
import { configFromEnv } from "../../../runtime/config.js";
import { openDatabase } from "../../../runtime/db/connect.js";
import { createApp } from "../../../runtime/server.js";
import { apis } from "../../../generated/server.js";
import { uniq } from "./support.js";

/**
 * A server whose one connection's prepared statements can be read: on PostgreSQL, an instance
 * of its own with one connection and no statement timeout (so reads share that connection
 * rather than a read pool's); PGlite has only one.
 */
async function oneConnection(run: (db: Knex, base: string) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  const own = server.engine === "postgresql" ? await openDatabase({ ...configFromEnv(), dataDir: "memory://", poolSize: 1, statementTimeoutMs: 0 }) : undefined;
  const db = own?.knex ?? server.db;
  const listener = own && await new Promise<import("node:http").Server>((resolve) => {
    const s = createApp(apis, db, { ...configFromEnv(), logRequests: false }).listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = listener ? `http://127.0.0.1:${(listener.address() as import("node:net").AddressInfo).port}` : "";
  try {
    await run(db, base);
  } finally {
    await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
    await own?.close();
  }
}

/**
 * Runs `run` among 3,000 more tenants named from `filler`, removed after: enough that reading
 * them all costs more than probing an index, as in a live database (on a table of a page or
 * two PostgreSQL rightly reads it whole).
 */
async function amongFillerTenants(filler: string, run: (db: Knex) => Promise<void>): Promise<void> {
  const { db } = await startTestServer();
  await db.raw("INSERT INTO tenancy_tenant (name, slug) SELECT ? || i, ? || i FROM generate_series(1, 3000) AS i", [filler, filler]);
  await db.raw("ANALYZE tenancy_tenant");
  try {
    await run(db);
  } finally {
    await db("tenancy_tenant").whereLike("slug", `${filler}%`).del();
  }
}

describe("inventory e2e: statement plans", () => {
  const tag = uniq("plans").toLowerCase();

  it("a read that is hot runs as a named prepared statement of that connection", () => oneConnection(async (db, base) => {
    const circuitType = (await post("/api/circuits/circuit-types/", { name: `${tag} type` })).body;
    const path = `${base}/api/circuits/circuit-types/${circuitType.id}/`;
    const sent: Array<{ sql: string; options?: { name?: string } }> = [];
    const listen = (_r: unknown, q: { sql: string; options?: { name?: string } }) => sent.push(q);
    db.on("query-response", listen);
    try {
      for (let i = 0; i < 3; i++) expect((await get(path)).status).to.equal(200);
    } finally {
      db.removeListener("query-response", listen);
    }
    const reads = sent.filter((q) => q.sql.includes("circuits_circuittype"));
    expect(reads).to.have.length(3);
    // Named from its second sighting on (sooner when other tests read the same shape).
    const name = reads[2].options?.name ?? "";
    expect(name).to.match(/^a_[0-9a-f]{24}$/);
    expect(reads[1].options?.name).to.equal(name);
    const held = await db.raw("SELECT statement FROM pg_prepared_statements WHERE name = ?", [name]);
    expect(held.rows).to.have.length(1);
    expect(held.rows[0].statement).to.include("circuits_circuittype");
  }));

  // A filter whose value picks the statement's text and binds nothing (`cabled=true`: `cable
  // IS NOT NULL`) is planned exactly for what it asks, so its statement is planned once like an
  // unfiltered one. A pattern's (`name__ic`) rows are chosen and counted by statements written
  // with its value, which PostgreSQL plans for it each time (how many rows it matches decides
  // the plan), run inside the list's statement: one text for every value, planned once.
  it("a list filtered by presence is planned once; one filtered by a pattern chooses its rows apart", () => oneConnection(async (db, base) => {
    const sent: Array<{ sql: string; options?: { name?: string } }> = [];
    const listen = (_r: unknown, q: { sql: string; options?: { name?: string } }) => sent.push(q);
    db.on("query-response", listen);
    try {
      for (let i = 0; i < 4; i++) {
        expect((await get(`${base}/api/dcim/interfaces/?cabled=true&limit=2`)).status).to.equal(200);
        expect((await get(`${base}/api/dcim/interfaces/?name__ic=${tag}${i % 2 ? "x" : ""}&limit=2`)).status).to.equal(200);
      }
    } finally {
      db.removeListener("query-response", listen);
    }
    const pages = sent.filter((q) => q.sql.includes(`"dcim_interface"`) && q.sql.includes("AS count"));
    const present = pages.filter((q) => q.sql.includes(`"cable_id" IS NOT NULL`));
    const pattern = pages.filter((q) => q.sql.includes("armature_chosen("));
    expect([pages.length, present.length, pattern.length]).to.deep.equal([8, 4, 4]);
    // The pattern is a value of the statement, not part of its text: both patterns ran as one.
    expect(pattern.some((q) => q.sql.includes(tag))).to.equal(false);
    expect(new Set(pattern.slice(1).map((q) => q.options?.name)).size).to.equal(1);
    const plans = async (name: string | undefined) => {
      const { rows } = await db.raw(`SELECT generic_plans::int AS g, custom_plans::int AS c FROM pg_prepared_statements WHERE name = '${name}'`);
      return [rows[0]?.g, rows[0]?.c];
    };
    expect(present[3].options?.name ?? "").to.match(/^a_[0-9a-f]{24}$/);
    expect(pattern[3].options?.name ?? "").to.match(/^a_[0-9a-f]{24}$/);
    // Named from the second run on (sooner when other tests read the same shape): at least three runs each.
    for (const [name, what] of [[present[3].options?.name, "presence"], [pattern[3].options?.name, "pattern"]]) {
      const [generic, custom] = await plans(name);
      expect([generic >= 3, custom], `${what}: generic plans, custom plans`).to.deep.equal([true, 0]);
    }
  }));

  // PostgreSQL plans a prepared statement for its values five times, then keeps a generic plan
  // unless that looks dearer: an id compared as an array of one, or a first page's limit as a
  // parameter, made it look so, and each detail or first page was planned anew (longer than it ran).
  it("hot detail reads, first pages and writes keep one generic plan", () => oneConnection(async (db, base) => {
    const site = (await post("/api/dcim/sites/", { name: `${tag} site`, status: "active" })).body;
    const prefix = (await post("/api/ipam/prefixes/", { prefix: "10.251.0.0/16", status: "active", site: site.id })).body;
    try {
      // A statement is named from its second sighting on: each of these runs at least seven times so.
      const runs = 8;
      for (let i = 0; i < runs; i++) {
        expect((await get(`${base}/api/ipam/prefixes/${prefix.id}/`)).status).to.equal(200);
        expect((await get(`${base}/api/ipam/prefixes/?limit=3`)).status).to.equal(200);
        expect((await patch(`${base}/api/ipam/prefixes/${prefix.id}/`, { description: `${tag} ${i}` })).status).to.equal(200);
      }
      const { rows } = await db.raw(
        "SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE generic_plans + custom_plans >= ?", [runs - 1]);
      const hot = rows as Array<{ statement: string; generic: number; custom: number }>;
      const detail = hot.filter((r) => r.statement.includes(`from "ipam_prefix" as "t0" where t0.id = `));
      const page = hot.filter((r) => r.statement.includes(`from "ipam_prefix" as "t0"`) && /\blimit 3\b/.test(r.statement));
      expect(detail, "the detail read, prepared").to.have.length.greaterThan(0);
      expect(page, "the list page, prepared").to.have.length(1);
      // This test's reads; on PGlite the one connection holds every other test's statements too.
      const replanned = [...detail, ...page].filter((r) => r.custom > 5).map((r) => `${r.custom} plans for ${r.generic + r.custom} runs: ${r.statement.slice(0, 160)}`);
      expect(replanned).to.deep.equal([]);
    } finally {
      // Other tests count the prefixes there are.
      expect((await del(`/api/ipam/prefixes/${prefix.id}/`)).status).to.equal(204);
      expect((await del(`/api/dcim/sites/${site.id}/`)).status).to.equal(204);
    }
  }));

  // Left to choose, PostgreSQL read a small tag table whole for each object of a page (a hash of
  // all 302 tags per prefix, on the bench's data): a page's cost grew with the tags defined, not
  // the tags it shows. It chooses so where an object has several tags among many assignments.
  it("a page's tags are looked up by their assignments, however many tags there are", async () => {
    const { db } = await startTestServer();
    const many = `${tag}-many`;
    await db.raw(`INSERT INTO extras_tag (id, name, slug, color, description, created, last_updated, custom_field_data)
      SELECT gen_random_uuid(), ? || i, ? || i, 'aa1409', '', now(), now(), '{}' FROM generate_series(1, 300) AS i`, [many, many]);
    const providers: string[] = [];
    try {
      // As the bench's data, where PostgreSQL chose to hash every tag: many assignments of the
      // type, two an object (of providers that are not there; they go with their tags below).
      await db.raw(`INSERT INTO extras_tag_assignment (object_id, object_type, tag_id)
        SELECT md5(? || i)::uuid, 'circuits.provider', t.id FROM generate_series(1, 20000) AS i
        CROSS JOIN (SELECT id FROM extras_tag WHERE name LIKE ? ORDER BY name LIMIT 2) t`, [many, `${many}%`]);
      await db.raw("ANALYZE extras_tag_assignment");
      await db.raw("ANALYZE extras_tag");
      const shown: Array<{ id: string; slug: string }> = [];
      for (const name of [`${many}-a`, `${many}-b`]) {
        const made = await post("/api/extras/tags/", { name });
        expect(made.status, made.text).to.equal(201);
        shown.push(made.body);
      }
      for (let i = 0; i < 3; i++) {
        const made = await post("/api/circuits/providers/", { name: `${tag} provider ${i}`, tags: shown.map((t) => t.id) });
        expect(made.status, made.text).to.equal(201);
        providers.push(made.body.id);
      }
      const { sql, bindings, status, body } = await statements(`/api/circuits/providers/?${providers.map((id) => `id=${id}`).join("&")}&limit=50`);
      expect(status).to.equal(200);
      expect(body.results.map((p: any) => p.tags.map((t: any) => t.slug))).to.deep.equal(providers.map(() => shown.map((t) => t.slug)));
      const read = sql.findIndex((q) => q.includes("circuits_provider") && q.includes("AS count"));
      const plan = await planOf(db, sql[read], bindings[read], true);
      // Every row of the tag table the statement touched, kept or filtered out, on every loop.
      const touched = (node: any): number => (node["Relation Name"] === "extras_tag"
        ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"] : 0)
        + (node.Plans ?? []).reduce((n: number, child: any) => n + touched(child), 0);
      // At most one per tag shown (PostgreSQL may remember a tag it has looked up), and one per
      // provider for the probe that tells an empty list from one with tags; the old statement
      // read 912, every tag for each provider.
      expect(touched(plan), "tag rows read for 3 providers of 2 tags each").to.be.at.most(6 + 3);
    } finally {
      for (const id of providers) expect((await del(`/api/circuits/providers/${id}/`)).status).to.equal(204);
      await db("extras_tag").whereLike("name", `${many}%`).del();
    }
  });

  // A sub-select looks up a page's site for each prefix, reading the site table (one page, for
  // the bench's 50 sites) each time: joined, the page's rows are matched against it once.
  it("a page's linked objects are joined, not looked up by a sub-select for each row", async () => {
    const { db } = await startTestServer();
    const site = (await post("/api/dcim/sites/", { name: `${tag} joined`, status: "active" })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: `${tag} joined` })).body;
    const made = await post("/api/ipam/prefixes/", { prefix: "10.252.0.0/16", status: "active", site: site.id, tenant: tenant.id });
    expect(made.status, made.text).to.equal(201);
    try {
      const { sql, bindings, status, body } = await statements(`/api/ipam/prefixes/?id=${made.body.id}&limit=5`);
      expect(status).to.equal(200);
      expect(body.results[0].site).to.deep.include({ id: site.id, name: site.name, display: site.name });
      expect(body.results[0].tenant).to.deep.include({ id: tenant.id, name: tenant.name });
      expect(body.results[0].vrf).to.equal(null);
      const read = sql.findIndex((q) => q.includes("ipam_prefix") && q.includes("AS count"));
      const plan = await planOf(db, sql[read], bindings[read]);
      // The tables read by sub-plans run for each row of the statement's own rows.
      const relations = (node: any): string[] => [node["Relation Name"] ?? [], ...(node.Plans ?? []).map(relations)].flat();
      const perRow = (node: any): string[] => (node.Plans ?? []).flatMap((child: any) =>
        (child["Parent Relationship"] === "SubPlan" ? relations(child) : perRow(child)));
      expect(perRow(plan).filter((r) => ["dcim_site", "tenancy_tenant", "ipam_vrf", "ipam_role", "ipam_vlan"].includes(r))).to.deep.equal([]);
    } finally {
      expect((await del(`/api/ipam/prefixes/${made.body.id}/`)).status).to.equal(204);
      expect((await del(`/api/dcim/sites/${site.id}/`)).status).to.equal(204);
      expect((await del(`/api/tenancy/tenants/${tenant.id}/`)).status).to.equal(204);
    }
  });

  // Interfaces sort by their device's name, then their own: the page is chosen in that order
  // and its objects' texts come out in it. Sorted again above the page (by a sub-select for
  // each row), every object's text was made before the first could be sent.
  it("a page ordered through a link is sorted once, as it is chosen", async () => {
    const { db } = await startTestServer();
    const site = (await post("/api/dcim/sites/", { name: `${tag} sorted`, status: "active" })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag} sorted` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag} sorted` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag} sorted` })).body;
    const devices = [];
    for (const name of [`${tag} b`, `${tag} a`]) {
      const made = await post("/api/dcim/devices/", { name, site: site.id, device_role: role.id, device_type: type.id, status: "active" });
      expect(made.status, made.text).to.equal(201);
      devices.push(made.body);
    }
    for (const device of devices) {
      for (const name of ["eth1", "eth0"]) expect((await post("/api/dcim/interfaces/", { device: device.id, name, type: "1000base-t" })).status).to.equal(201);
    }
    try {
      const { sql, bindings, status, body } = await statements(`/api/dcim/interfaces/?site_id=${site.id}&limit=10`);
      expect(status).to.equal(200);
      expect(body.results.map((i: any) => `${i.device.name}/${i.name}`)).to.deep.equal([`${tag} a/eth0`, `${tag} a/eth1`, `${tag} b/eth0`, `${tag} b/eth1`]);
      const read = sql.findIndex((q) => q.includes("dcim_interface") && q.includes("AS count"));
      const plan = await planOf(db, sql[read], bindings[read]);
      // Sorts of the statement's own rows, not of a sub-plan's (a nested list's, say): at most
      // the page's own (PostgreSQL may walk an index instead), none by a sub-select.
      const sorts = (node: any): string[] => [...(node["Node Type"] === "Sort" ? [node["Sort Key"].join(", ")] : []),
        ...(node.Plans ?? []).filter((c: any) => !["SubPlan", "InitPlan"].includes(c["Parent Relationship"])).flatMap(sorts)];
      expect(sorts(plan).length, sorts(plan).join("; ")).to.be.at.most(1);
      expect(sorts(plan).join("; ")).not.to.include("SubPlan");
    } finally {
      for (const device of devices) expect((await del(`/api/dcim/devices/${device.id}/`)).status).to.equal(204);
      for (const [path, id] of [["device-types", type.id], ["manufacturers", maker.id], ["device-roles", role.id], ["sites", site.id]]) {
        expect((await del(`/api/dcim/${path}/${id}/`)).status).to.equal(204);
      }
    }
  });

  // A filter's values named by id or by slug were matched as `id::text = value`, which no index
  // serves: each value's check read the whole target table (100 interface ids against the
  // bench's 2,000 interfaces: 55 ms of a list's 62).
  it("a filter naming many objects matches and checks each through an index, not by reading their table", () => amongFillerTenants(`${tag}-filler`, async (db) => {
    const tenants: Array<{ id: string; slug: string }> = [];
    for (let i = 0; i < 20; i++) {
      const made = await post("/api/tenancy/tenants/", { name: `${tag} named ${i}` });
      expect(made.status, made.text).to.equal(201);
      tenants.push(made.body);
    }
    const prefix = await post("/api/ipam/prefixes/", { prefix: "10.253.0.0/16", status: "active", tenant: tenants[3].id });
    expect(prefix.status, prefix.text).to.equal(201);
    try {
      // Ids in upper case and slugs, as clients send them; the last names nothing.
      const named = [...tenants.slice(0, 10).map((t) => t.id.toUpperCase()), ...tenants.slice(10).map((t) => t.slug)];
      const { sql, bindings, status, body } = await statements(`/api/ipam/prefixes/?${named.map((v) => `tenant=${v}`).join("&")}&limit=5`);
      expect(status).to.equal(200);
      expect(body.results.map((p: any) => p.id)).to.deep.equal([prefix.body.id]);
      const read = sql.findIndex((q) => q.includes("ipam_prefix") && q.includes("AS count"));
      const plan = await planOf(db, sql[read], bindings[read], true);
      const all = Number((await db("tenancy_tenant").count("* as n"))[0].n);
      // The table read a few times at most, whatever the number of values (PostgreSQL may hash
      // it once for the slugs, or probe its indexes); matched as text, each value's check read
      // it whole: 21 times for 20 values.
      expect(rowsTouched(plan, "tenancy_tenant"), `tenant rows read for 20 values of ${all} tenants`).to.be.at.most(4 * all);
      const unknown = await get(`/api/ipam/prefixes/?tenant=${tenants[0].id.toUpperCase()}&tenant=${tag}-nobody`);
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.deep.equal({ tenant: [`Select a valid choice. ${tag}-nobody is not one of the available choices.`] });
    } finally {
      expect((await del(`/api/ipam/prefixes/${prefix.body.id}/`)).status).to.equal(204);
      for (const t of tenants) expect((await del(`/api/tenancy/tenants/${t.id}/`)).status).to.equal(204);
    }
  }));

  it("GraphQL finds an object by id, and a mutation's written objects, through the key's index", () => amongFillerTenants(`${tag}-gql-filler`, async (db) => {
    const made = await post("/api/tenancy/tenants/", { name: `${tag} by id` });
    expect(made.status, made.text).to.equal(201);
    try {
      const all = Number((await db("tenancy_tenant").count("* as n"))[0].n);
      // The statement that answers, and the rows of the tenant table it looked at: as the key's
      // text compared with the value, it read every one of them.
      const touchedBy = async (query: string) => {
        const got = await statementsOf(() => post("/api/graphql/", { query }));
        expect(got.status, JSON.stringify(got.body)).to.equal(200);
        expect(got.body.errors, JSON.stringify(got.body.errors)).to.equal(undefined);
        const read = got.sql.findIndex((q) => q.includes('"tenancy_tenant"') && !/^(insert|update|delete)/i.test(q.trim()));
        const plan = await planOf(db, got.sql[read], got.bindings[read], true);
        return { data: got.body.data, rows: rowsTouched(plan, "tenancy_tenant") };
      };
      // An id in upper case is the same key, as PostgreSQL reads it.
      const one = await touchedBy(`{ tenant(id: "${made.body.id.toUpperCase()}") { name } }`);
      expect(one.data).to.deep.equal({ tenant: { name: `${tag} by id` } });
      expect(one.rows, `tenant rows read for one id of ${all} tenants`).to.be.below(all / 10);
      const written = await touchedBy(`mutation { update_tenant(id: "${made.body.id}", input: { description: "by id" }) { name description } }`);
      expect(written.data).to.deep.equal({ update_tenant: { name: `${tag} by id`, description: "by id" } });
      expect(written.rows, `tenant rows read for one written object of ${all} tenants`).to.be.below(all / 10);
      const none = await post("/api/graphql/", { query: `{ a: tenant(id: "${made.body.id.replace(/-/g, "")}") { name } b: tenant(id: "007") { name } }` });
      expect(none.body).to.deep.equal({ data: { a: null, b: null } });
    } finally {
      expect((await del(`/api/tenancy/tenants/${made.body.id}/`)).status).to.equal(204);
    }
  }));

  it("a bulk write's answer and change records find its rows through the key, not by reading the table", () => amongFillerTenants(`${tag}-bulk-filler`, async (db) => {
    const bodies = Array.from({ length: 300 }, (_, i) => ({ name: `${tag} bulk ${i}` }));
    let made: Array<{ id: string; name: string }> = [];
    try {
      const got = await statementsOf(() => post("/api/tenancy/tenants/", bodies));
      expect(got.status, JSON.stringify(got.body).slice(0, 300)).to.equal(201);
      made = got.body;
      expect(made.map((t) => t.name)).to.deep.equal(bodies.map((b) => b.name));
      const all = Number((await db("tenancy_tenant").count("* as n"))[0].n);
      // The statements that read the written rows back by their keys: the answer, and the
      // change records made from it. Run again to be measured, and undone.
      const reads = got.sql.flatMap((q, n) => (q.includes("WITH ORDINALITY AS w(id, n)") && q.includes('"tenancy_tenant"') ? [n] : []));
      expect(reads, "statements reading the written tenants back").to.not.be.empty;
      for (const n of reads) {
        const trx = await db.transaction();
        let rows: number;
        try {
          rows = rowsTouched(await planOf(trx, got.sql[n], got.bindings[n], true), "tenancy_tenant");
        } finally {
          await trx.rollback();
        }
        // Joined plainly to the list of keys, PostgreSQL hashed them against the whole table.
        expect(rows, `tenant rows read for 300 written of ${all}: ${got.sql[n].slice(0, 120)}`).to.be.at.most(2 * bodies.length);
      }
    } finally {
      if (made.length) expect((await del("/api/tenancy/tenants/", made.map((t) => ({ id: t.id })))).status).to.equal(204);
    }
  }));

  it("the relationships sub-select nests only the models a relationship names", async () => {
    const provider = (await post("/api/circuits/providers/", { name: `${tag} provider` })).body;
    const path = `/api/circuits/providers/${provider.id}/?include=relationships`;
    const none = await statements(path);
    expect(none.status).to.equal(200);
    expect(none.body.relationships).to.deep.equal({});
    const read = (r: { sql: string[] }) => r.sql.filter((s) => s.includes("circuits_provider")).at(-1)!;
    expect(read(none)).to.not.include("extras_relationshipassociation");

    const rel = (await post("/api/extras/relationships/", { name: `${tag} provider to tenant`, source_type: "circuits.provider", destination_type: "tenancy.tenant" })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: `${tag} tenant` })).body;
    expect((await post("/api/extras/relationship-associations/", {
      relationship: rel.id, source_type: "circuits.provider", source_id: provider.id, destination_type: "tenancy.tenant", destination_id: tenant.id,
    })).status).to.equal(201);
    const one = await statements(path);
    expect(one.status).to.equal(200);
    // The statement built on "no relationships" found one and was run again on a plan that has it.
    expect(one.body.relationships[rel.slug].destination.objects.map((o: { id: string }) => o.id)).to.deep.equal([tenant.id]);
    const sized = read(one);
    expect(sized).to.include("'tenancy.tenant' THEN");
    expect(sized).to.not.include("'dcim.device' THEN");

    expect((await del(`/api/extras/relationships/${rel.id}/`)).status).to.equal(204);
    const gone = await statements(path);
    expect(gone.body.relationships).to.deep.equal({});
    expect(read(await statements(path))).to.not.include("extras_relationshipassociation");
  });
});
