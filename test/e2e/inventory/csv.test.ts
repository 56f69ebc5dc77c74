// CSV through the REST API, as Nautobot 2.x serves it: `?format=csv` and `Accept: text/csv`
// on a list give every row the filters and permissions select in Nautobot's columns (related
// objects by natural key, lists joined, custom fields as `cf_<key>`); a `text/csv` POST
// creates its rows as one bulk through the write pipeline, all or none, refusals per row and
// field. Checked over HTTP against what the database holds, on PGlite and PostgreSQL.
import { expect } from "chai";
import { parse } from "csv-parse/sync";
import { call, del, get, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { statements } from "../../support/statements.js";
import { rows, uniq } from "./support.js";

const TENANTS = "/api/tenancy/tenants/";
const GROUPS = "/api/tenancy/tenant-groups/";
const CFS = "/api/extras/custom-fields/";
const TAGS = "/api/extras/tags/";

/** A CSV body posted to `path`. */
const postCsv = (path: string, text: string, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  call("POST", path, { token: opts.token, body: text, raw: true, headers: { "Content-Type": "text/csv", ...opts.headers } });

/** The tenants list as CSV records, header first. */
async function csvOf(query: string, opts: { headers?: Record<string, string>; token?: string } = {}): Promise<string[][]> {
  const res = await call("GET", `${TENANTS}?${query}`, opts);
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get("content-type")).to.equal("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).to.equal('attachment; filename="nautobot_tenant_data.csv"');
  return parse(res.text);
}

/** Records as objects by header. */
const byHeader = ([header, ...records]: string[][]) => records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));

describe("inventory e2e: CSV through the REST API", () => {
  const tag = uniq("csv").toLowerCase();
  const cfName = `${tag.replace(/-/g, "_")}_n`;
  let group: Record<string, any>;
  let label: Record<string, any>;
  let first: Record<string, any>;

  before(async () => {
    group = (await post(GROUPS, { name: `${tag}-group` })).body;
    label = (await post(TAGS, { name: `${tag}-tag`, content_types: ["tenancy.tenant"] })).body;
    const cf = await post(CFS, { name: cfName, type: "integer", content_types: ["tenancy.tenant"] });
    expect(cf.status, cf.text).to.equal(201);
    const a = await post(TENANTS, { name: `${tag}-a`, group: group.id, tags: [label.id], description: "first, with a \"quote\"", custom_fields: { [cfName]: 7 } });
    expect(a.status, a.text).to.equal(201);
    first = a.body;
    expect((await post(TENANTS, { name: `${tag}-b`, comments: "two\nlines" })).status).to.equal(201);
  });

  after(async () => {
    const { db } = await startTestServer();
    // Nothing refers to these tenants, so the sixteen foreign keys that point at the table need
    // not be checked for each of the 100,000 (some 10 s on PGlite): the referential triggers are
    // off for the one statement, where the role may turn them off (a superuser, as test servers are).
    await db.transaction(async (trx) => {
      const superuser = (await trx.raw("SHOW is_superuser")).rows[0].is_superuser === "on";
      if (superuser) await trx.raw("SET LOCAL session_replication_role = replica");
      await trx("tenancy_tenant").where("name", "like", `${tag}-%`).del();
    });
  });

  it("exports every row the filters select, not a page, in Nautobot 2.x's columns", async () => {
    const records = await csvOf(`q=${tag}&format=csv&limit=1&offset=1`);
    expect(records[0]).to.deep.equal([
      "name", "display", "id", "slug", "group__slug", "description", "comments", "site_count", "prefix_count", "ipaddress_count",
      "virtualmachine_count", "vlan_count", "vrf_count", "created", "last_updated", "tags", `cf_${cfName}`,
    ]);
    const [a, b] = byHeader(records);
    expect(a).to.deep.include({
      name: `${tag}-a`, display: `${tag}-a`, id: first.id, slug: `${tag}-a`, group__slug: group.slug, description: "first, with a \"quote\"",
      comments: "", site_count: "0", tags: label.slug, [`cf_${cfName}`]: "7", created: first.created, last_updated: first.last_updated,
    });
    // No group is Nautobot's `NoObject`; an unset custom field is empty; text keeps its line breaks.
    expect(b).to.deep.include({ name: `${tag}-b`, group__slug: "NoObject", comments: "two\nlines", tags: "", [`cf_${cfName}`]: "" });
  });

  it("answers Accept: text/csv as ?format=csv, and honours the filters", async () => {
    const records = await csvOf(`name=${tag}-b`, { headers: { Accept: "text/csv" } });
    expect(byHeader(records).map((r) => r.name)).to.deep.equal([`${tag}-b`]);
    // A filter's refusal is still the API's JSON 400, before any of the file is sent.
    const bad = await get(`${TENANTS}?format=csv&group=${tag}-nothing`);
    expect(bad.status).to.equal(400);
    expect(bad.headers.get("content-type")).to.match(/^application\/json/);
    // Only lists render CSV, as DRF answers a format or a type a view does not render.
    expect((await get(`${TENANTS}${first.id}/?format=csv`)).status).to.equal(404);
    expect((await get(`${TENANTS}${first.id}/`, { headers: { Accept: "text/csv" } })).status).to.equal(406);
    // The JSON list is unchanged.
    expect((await get(`${TENANTS}?q=${tag}`)).body.count).to.equal(2);
  });

  it("exports every kind of list: a model's further listings and an object's notes too", async () => {
    const note = await post(`${TENANTS}${first.id}/notes/`, { note: "first note, with a comma" });
    expect(note.status, note.text).to.equal(201);
    const notes = await call("GET", `${TENANTS}${first.id}/notes/?format=csv`);
    expect([notes.status, notes.headers.get("content-type")]).to.deep.equal([200, "text/csv; charset=utf-8"]);
    const [noteRow, ...others] = byHeader(parse(notes.text));
    expect(others).to.deep.equal([]);
    expect(noteRow).to.include({ id: note.body.id, note: "first note, with a comma", assigned_object_id: first.id });
    const viaAccept = await call("GET", `${TENANTS}${first.id}/notes/`, { headers: { Accept: "text/csv" } });
    expect(parse(viaAccept.text)).to.deep.equal(parse(notes.text));
    // A listing (the console ports that are connected): every row it selects, in the columns of its model.
    const listing = await call("GET", "/api/dcim/console-connections/?format=csv&limit=1");
    expect([listing.status, listing.headers.get("content-type")]).to.deep.equal([200, "text/csv; charset=utf-8"]);
    const json = await get("/api/dcim/console-connections/?limit=0");
    const records = byHeader(parse(listing.text));
    expect(records.map((r) => r.id).sort()).to.deep.equal(json.body.results.map((r: { id: string }) => r.id).sort());
    expect(parse(listing.text)[0].slice(0, 3)).to.deep.equal(["name", "display", "id"]);
  });

  it("documents CSV on every list of every OpenAPI document it serves", async () => {
    for (const version of ["1.2", "1.3", "1.4", "1.5"]) {
      const doc = (await get(`/api/swagger.json?api_version=${version}`)).body;
      const lists: string[] = [];
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        const content = item.get?.responses?.["200"]?.content;
        if (!/Paginated/.test(JSON.stringify(content?.["application/json"] ?? {}))) continue;
        lists.push(path);
        const params = (item.get.parameters as Array<Record<string, any>>).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split("/").at(-1)] : p));
        const format = params.find((p) => p.name === "format");
        expect({ path, csv: !!content["text/csv"], format: format?.schema?.enum?.includes("csv") }, version).to.deep.equal({ path, csv: true, format: true });
        if (item.post?.operationId?.endsWith("_create") && !path.endsWith("/notes/")) {
          expect(item.post.requestBody.content, `${version} ${path}`).to.have.property("text/csv");
          // The per-row refusal: a list of {row, field, errors}, its item schema perhaps among the components.
          const branches = item.post.responses["400"].content["application/json"].schema.anyOf as Array<Record<string, any>>;
          const items = branches.find((b) => b.type === "array")?.items;
          const item400 = items?.$ref ? doc.components.schemas[items.$ref.split("/").at(-1)] : items;
          expect(item400?.required, `${version} ${path}`).to.deep.equal(["row", "field", "errors"]);
        }
      }
      expect(lists, version).to.include.members([TENANTS, "/api/dcim/console-connections/", "/api/tenancy/tenants/{id}/notes/"]);
    }
  });

  it("exports only the rows the requester may view", async () => {
    const server = await startTestServer();
    const viewer = await server.user(uniq(`${tag}-viewer`), { grants: [{ object_types: ["tenancy.tenant"], actions: ["view"], constraints: { name: `${tag}-b` } }] });
    const records = await csvOf(`q=${tag}&format=csv`, { token: viewer.key });
    expect(byHeader(records).map((r) => r.name)).to.deep.equal([`${tag}-b`]);
    const none = await server.user(uniq(`${tag}-none`), {});
    expect((await get(`${TENANTS}?format=csv`, { token: none.key })).status).to.equal(403);
  });

  it("reads a file of fewer rows than a page with one statement", async () => {
    const { sql, status } = await statements(`${TENANTS}?q=${tag}&format=csv`);
    expect(status).to.equal(200);
    expect(sql.filter((s) => s.includes('"tenancy_tenant"'))).to.have.length(1);
  });

  it("imports CSV rows as one bulk: related objects by natural key or id, lists, custom fields", async () => {
    const text = [
      `name,group__slug,group,tags,description,cf_${cfName},id,display,site_count`,
      `${tag}-c,${group.slug},,${label.slug},"made, from CSV",12,ignored,ignored,5`,
      `${tag}-d,NoObject,${group.id},,,,,,`,
      `${tag}-e,NoObject,,"${label.id}",,NULL,,,`,
    ].join("\r\n");
    const res = await postCsv(TENANTS, text);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.map((t: any) => [t.name, t.group?.id ?? null, t.tags.map((x: any) => x.id), t.custom_fields[cfName]])).to.deep.equal([
      [`${tag}-c`, group.id, [label.id], 12],
      [`${tag}-d`, group.id, [], null],
      [`${tag}-e`, null, [label.id], null],
    ]);
    expect(res.body[0].description).to.equal("made, from CSV");
    expect(await rows("tenancy_tenant", { group_id: group.id })).to.equal(3);
  });

  it("reads back what it exports: a file exported, deleted and imported makes the same objects", async () => {
    const exported = await call("GET", `${TENANTS}?name=${tag}-a&format=csv`);
    expect((await del(`${TENANTS}${first.id}/`)).status).to.equal(204);
    const res = await postCsv(TENANTS, exported.text);
    expect(res.status, res.text).to.equal(201);
    const [again] = res.body;
    expect(again.id).not.to.equal(first.id);
    for (const field of ["name", "slug", "description", "comments", "custom_fields"]) expect(again[field], field).to.deep.equal(first[field]);
    expect(again.group.id).to.equal(group.id);
    expect(again.tags.map((t: any) => t.id)).to.deep.equal([label.id]);
    first = again;
  });

  it("refuses the whole file on any bad row, naming each problem's row and field", async () => {
    const text = [
      `name,group__slug,cf_${cfName}`,
      `${tag}-f,${group.slug},1`,
      `${tag}-g,${group.slug},2`,
      `${tag}-h,${tag}-nothing,3`,
      `,${group.slug},4`,
      `${tag}-j,${group.slug},five`,
    ].join("\n");
    const res = await postCsv(TENANTS, text);
    expect(res.status, res.text).to.equal(400);
    expect(res.body).to.deep.equal([
      { row: 3, field: "group", errors: [`Related object not found using the provided attributes: {'slug': '${tag}-nothing'}`] },
      { row: 4, field: "name", errors: ["This field may not be blank."] },
      { row: 5, field: `cf_${cfName}`, errors: [`Invalid value for custom field '${cfName}': Value must be an integer.`] },
    ]);
    for (const name of ["f", "g", "h", "j"]) expect(await rows("tenancy_tenant", { name: `${tag}-${name}` })).to.equal(0);
  });

  it("refuses unreadable CSV, and a body over the limit, as a JSON bulk's", async () => {
    const unclosed = await postCsv(TENANTS, `name,description\n${tag}-x,"open`);
    expect(unclosed.status).to.equal(400);
    expect(unclosed.body.detail).to.match(/^CSV parse error - /);
    const ragged = await postCsv(TENANTS, `name,description\n${tag}-x,a,b`);
    expect(ragged.status).to.equal(400);
    expect(ragged.body.detail).to.match(/^CSV parse error - /);
    const blank = await postCsv(TENANTS, `name,,description\n${tag}-x,a,b`);
    expect([blank.status, blank.body]).to.deep.equal([400, { detail: "Row 1: Column 2: missing/empty header for this column" }]);
    const big = await postCsv(TENANTS, `name,description\n${`${tag}-x,${"d".repeat(100)}\n`.repeat(20_000)}`);
    expect(big.status).to.equal(413);
    expect(await rows("tenancy_tenant", { name: `${tag}-x` })).to.equal(0);
    // Other methods take no CSV.
    expect((await call("PATCH", TENANTS, { body: "id,name\n", raw: true, headers: { "Content-Type": "text/csv" } })).status).to.equal(415);
  });

  it("refuses an import the requester may not add", async () => {
    const server = await startTestServer();
    const viewer = await server.user(uniq(`${tag}-reader`), { grants: [{ object_types: ["tenancy.tenant"], actions: ["view"] }] });
    const res = await postCsv(TENANTS, `name\n${tag}-y\n`, { token: viewer.key });
    expect(res.status).to.equal(403);
    expect(await rows("tenancy_tenant", { name: `${tag}-y` })).to.equal(0);
  });

  describe("at scale", function () {
    // Tens of thousands of rows through the embedded database on a shared machine: no bound on
    // how long, only on what comes back.
    this.timeout(1_800_000);
    let bulk: Record<string, any>;

    before(async () => {
      bulk = (await post(GROUPS, { name: `${tag}-bulk` })).body;
    });

    it("imports 10,000 rows in one request", async () => {
      const lines = Array.from({ length: 10_000 }, (_v, i) => `${tag}-i${i},${bulk.slug},${i}`);
      const res = await postCsv(TENANTS, [`name,group__slug,cf_${cfName}`, ...lines].join("\n"));
      expect(res.status, res.text.slice(0, 500)).to.equal(201);
      expect(res.body).to.have.length(10_000);
      expect(res.body[9_999]).to.deep.include({ name: `${tag}-i9999` });
      expect(await rows("tenancy_tenant", { group_id: bulk.id })).to.equal(10_000);
    });

    it("exports 100,000 rows, streamed: two statements on PostgreSQL, keyset pages on the embedded database", async () => {
      const { db } = await startTestServer();
      // Set-based: the rows are the test's setting, not what it checks.
      await db.raw(
        `INSERT INTO tenancy_tenant (name, slug, group_id, description) SELECT ?::text || '-s' || n, ?::text || '-s' || n, ?::uuid, 'bulk' FROM generate_series(1, 90000) n`,
        [tag, tag, bulk.id],
      );
      const server = await startTestServer();
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      let text: string;
      try {
        const res = await fetch(`${server.url}${TENANTS}?group=${bulk.slug}&format=csv`, { headers: { Authorization: `Token ${server.token}` } });
        expect(res.status).to.equal(200);
        // Sent as it is read, so no length is known up front.
        expect(res.headers.get("content-length")).to.equal(null);
        expect(res.headers.get("transfer-encoding")).to.equal("chunked");
        text = await res.text();
      } finally {
        db.removeListener("query", listen);
      }
      // The statements that read rows (not the one, made once, that asks the ordering's types).
      const reads = sql.filter((s) => s.includes('"tenancy_tenant"') && !s.includes("pg_typeof"));
      const fetches = sql.filter((s) => /^FETCH FORWARD 1000 FROM /.test(s));
      if (server.engine === "pglite") {
        // One connection, which no client may hold: keyset pages of 1,000, each its own statement.
        expect([reads.length, fetches.length]).to.deep.equal([100, 0]);
      } else {
        // Two statements: the first page's, then one cursor over the other 99,000 rows, fetched 1,000 at a time.
        expect(reads.map((s) => s.slice(0, 8))).to.deep.equal(["select N", "DECLARE "]);
        expect(fetches).to.have.length(100);
      }
      const records: string[][] = parse(text);
      expect(records).to.have.length(100_001);
      const names = records.slice(1).map((r) => r[0]);
      expect(new Set(names).size).to.equal(100_000);
      // In the list's order (by name), every row once.
      expect(names).to.deep.equal([...names].sort());
      expect(names.filter((n) => n.startsWith(`${tag}-i`))).to.have.length(10_000);
    });
  });
});
