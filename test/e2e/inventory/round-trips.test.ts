// A single write's statements go ahead of their outcome (runtime/db/pipeline.ts), and it
// presumes what its lookups will find (runtime/db/presumed.ts): on PostgreSQL a create is one
// round trip, every statement from BEGIN to COMMIT in one socket write: the statement that
// fails unless the presumptions hold, the hook's check and the tags' scope taken by
// PostgreSQL, the row, its tags, the change record built in SQL, and the read of its answer,
// taken once the commit is answered; an update too, its object's lock presumed, where no hook
// of the model must see the stored row first. Where a presumption or a check does not hold, the write
// runs again the ordinary way, whose answer or refusal it is, leaving nothing behind. On the
// embedded engine the same statements run one after another (no socket: no writes).
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { roundTrips, sentStatements } from "../../support/statements.js";
import { startTestServer } from "../../support/server.js";
import { MISSING_ID, rows, uniq } from "./support.js";
import { demo } from "../../../demo/index.js";

const V13 = { headers: { Accept: "application/json; version=1.3" } };

describe("inventory e2e: a single write's round trips", () => {
  let pipelined = false;
  let relations: { site: string; vrf: string; tenant: string; tags: string[] };
  let octet = 0;
  // Other files in this worker share its schema and may hold these prefixes too (in other VRFs
  // or none): a count of them is of this file's VRF.
  const prefix = () => `10.77.${++octet}.0/24`;

  before(async () => {
    pipelined = (await startTestServer()).engine === "postgresql";
    const site = (await post("/api/dcim/sites/", { name: uniq("trip site"), status: "active" })).body;
    const vrf = (await post("/api/ipam/vrfs/", { name: uniq("trip vrf"), enforce_unique: true })).body;
    const tenant = (await post("/api/tenancy/tenants/", { name: uniq("trip tenant") })).body;
    const tags = [];
    for (let n = 0; n < 2; n++) tags.push((await post("/api/extras/tags/", { name: uniq("trip tag"), content_types: ["ipam.prefix"] }, V13)).body.id);
    relations = { site: site.id, vrf: vrf.id, tenant: tenant.id, tags };
  });

  it("a create with relations and tags: one round trip, from BEGIN to COMMIT", async () => {
    // The first create of a shape names its statements and reads its definitions; the second is the one counted.
    await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations });
    const made = await roundTrips(() => post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations }));
    expect(made.reply.status, made.reply.text).to.equal(201);
    expect(made.reply.headers.get("location")).to.equal(made.reply.body.url);
    expect(made.reply.body.tags.map((t: { id: string }) => t.id).sort()).to.deep.equal([...relations.tags].sort());
    expect(await rows("extras_objectchange", { changed_object_id: made.reply.body.id, action: "create" })).to.equal(1);
    expect(made.sql[0]).to.equal("BEGIN;");
    expect(made.sql.at(-1)).to.equal("COMMIT;");
    expect(made.sql.filter((sql) => sql === "BEGIN;")).to.have.length(1);
    if (!pipelined) return expect(made.writes).to.deep.equal([]);
    expect(made.writes, made.writes.join("\n\n")).to.have.length(1);
    const [sent] = made.writes;
    expect(sent[1]).to.match(/^WITH f AS .* SELECT armature_presume\(/s);
    const all = sent.join("\n");
    expect(all).to.match(/^insert into "ipam_prefix"/m).and.match(/^WITH r AS \(insert into "extras_tag_assignment"/m)
      .and.match(/^INSERT INTO "extras_objectchange"/m).and.match(/^select \(\(select (replace\()+concat\('\{"id":'/m);
    expect(sent.at(-1)).to.equal("COMMIT;");
  });

  it("an object named that does not exist: the presumption fails, and the answer is the ordinary way's, nothing left", async () => {
    const body = { prefix: prefix(), status: "active", ...relations, site: MISSING_ID, tenant: MISSING_ID };
    const changes = await rows("extras_objectchange");
    const tagged = await rows("extras_tag_assignment");
    // A bulk create never presumes (measured no faster: docs/architecture.md): its
    // one element's errors are the ordinary way's.
    const ordinary = await post("/api/ipam/prefixes/", [body]);
    expect(ordinary.status).to.equal(400);
    // The attempt that presumed read an answer it never takes: its failure is nobody's rejection.
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listen);
    const single = await roundTrips(() => post("/api/ipam/prefixes/", body)).finally(() => new Promise((resolve) => setTimeout(resolve, 50)));
    process.removeListener("unhandledRejection", listen);
    expect(unhandled).to.deep.equal([]);
    expect(single.reply.status).to.equal(400);
    expect(single.reply.body).to.deep.equal(ordinary.body[0]);
    expect(Object.keys(single.reply.body).sort()).to.deep.equal(["site", "tenant"]);
    expect([await rows("ipam_prefix", { prefix: body.prefix, vrf_id: relations.vrf }), await rows("extras_objectchange"), await rows("extras_tag_assignment")]).to.deep.equal([0, changes, tagged]);
    // The presuming attempt, rolled back; then the ordinary one, refused at its lookups.
    expect(single.sql.filter((sql) => sql === "BEGIN;")).to.have.length(2);
  });

  it("a definition made since the last write's read of them: the write runs the ordinary way and keeps to it", async () => {
    // A create that reads the model's definitions as they are now.
    expect((await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations })).status).to.equal(201);
    const name = uniq("trip_cf").replace(/[^a-z0-9]+/g, "_");
    const field = await post("/api/extras/custom-fields/", { name, type: "text", required: true, default: "presumed wrong", content_types: ["ipam.prefix"] });
    expect(field.status, field.text).to.equal(201);
    try {
      const made = await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations });
      expect(made.status, made.text).to.equal(201);
      expect(made.body.custom_fields[name]).to.equal("presumed wrong");
      const refused = await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations, custom_fields: { [name]: null } });
      expect(refused.status, refused.text).to.equal(400);
    } finally {
      expect((await del(`/api/extras/custom-fields/${field.body.id}/`)).status).to.equal(204);
    }
    const after = await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations });
    expect(after.status, after.text).to.equal(201);
    expect(after.body.custom_fields).to.not.have.property(name);
  });

  it("a refusal found by a check: PostgreSQL takes it, the write runs again the ordinary way, and the refusal is the hook's, nothing left", async () => {
    const taken = prefix();
    expect((await post("/api/ipam/prefixes/", { prefix: taken, status: "active", ...relations })).status).to.equal(201);
    const before = await rows("extras_tag_assignment");
    const changes = await rows("extras_objectchange");
    const twin = await roundTrips(() => post("/api/ipam/prefixes/", { prefix: taken, status: "active", ...relations }));
    expect(twin.reply.status).to.equal(400);
    expect(twin.reply.body.prefix[0]).to.match(new RegExp(`^Duplicate prefix found in VRF .*: ${taken.replace(/\./g, "\\.")}$`));
    expect([await rows("ipam_prefix", { prefix: taken, vrf_id: relations.vrf }), await rows("extras_tag_assignment"), await rows("extras_objectchange")]).to.deep.equal([1, before, changes]);
    expect(twin.sql.filter((sql) => sql === "BEGIN;")).to.have.length(2);
  });

  describe("an update", () => {
    /** The object at `path` as a read shows it, with the opt-in fields a write's answer shows (as before its answer came with the commit). */
    const shownByRead = async (path: string, answer: Record<string, unknown>) => {
      const read = (await get(path)).body;
      return { ...read, computed_fields: answer.computed_fields, relationships: answer.relationships };
    };
    const tenantTags = async () => {
      const tags = [];
      for (let n = 0; n < 2; n++) tags.push((await post("/api/extras/tags/", { name: uniq("trip tenant tag"), content_types: ["tenancy.tenant"] }, V13)).body.id);
      return tags;
    };

    // A tenant: no hook of its model, and no computed field another file of this worker's
    // schema might have left for it (one would have its answer rendered in JavaScript).
    it("of a model no hook reads the stored row of: one round trip, the lock presumed and the answer taken after the commit", async () => {
      const tags = await tenantTags();
      const tenant = (await post("/api/tenancy/tenants/", { name: uniq("trip updated") })).body;
      const path = `/api/tenancy/tenants/${tenant.id}/`;
      // The first update of a shape names its statements and reads its definitions; the second is the one counted.
      expect((await patch(path, { description: "first", tags: [tags[0]] })).status).to.equal(200);
      const changed = await roundTrips(() => patch(path, { description: "second", tags }));
      expect(changed.reply.status, changed.reply.text).to.equal(200);
      expect(changed.reply.body.description).to.equal("second");
      expect(changed.reply.body.tags.map((t: { id: string }) => t.id).sort()).to.deep.equal([...tags].sort());
      // The answer is the object as any read of it shows it, with the fields a write's answer adds.
      expect(changed.reply.body).to.deep.equal(await shownByRead(path, changed.reply.body));
      expect(await rows("extras_objectchange", { changed_object_id: tenant.id, action: "update" })).to.equal(2);
      expect(changed.sql.filter((sql) => sql === "BEGIN;")).to.have.length(1);
      if (!pipelined) return expect(changed.writes).to.deep.equal([]);
      expect(changed.writes, changed.writes.join("\n\n")).to.have.length(1);
      const [sent] = changed.writes;
      expect(sent[1]).to.match(/^WITH l AS \(+select .* for update\)+ SELECT armature_presume\(/s);
      expect(sent.join("\n")).to.match(/^update "tenancy_tenant"/m).and.match(/^INSERT INTO "extras_objectchange"/m).and.match(/^select \(\(select (replace\()+concat\('\{"id":'/m);
      expect(sent.at(-1)).to.equal("COMMIT;");
    });

    it("of an object that is not there: the presumption fails, and the answer is the ordinary way's 404, nothing left", async () => {
      const changes = await rows("extras_objectchange");
      const missing = await roundTrips(() => patch(`/api/tenancy/tenants/${MISSING_ID}/`, { description: "nobody's" }));
      expect(missing.reply.status).to.equal(404);
      expect(missing.reply.body).to.deep.equal({ detail: "Not found." });
      expect(await rows("extras_objectchange")).to.equal(changes);
      // The presuming attempt, rolled back; then the ordinary one, which finds no object.
      expect(missing.sql.filter((sql) => sql === "BEGIN;")).to.have.length(2);
    });

    it("of a model whose hooks see the stored row: two round trips, the stored row read with the lock", async () => {
      const made = (await post("/api/ipam/prefixes/", { prefix: prefix(), status: "active", ...relations })).body;
      const path = `/api/ipam/prefixes/${made.id}/`;
      expect((await patch(path, { description: "first" })).status).to.equal(200);
      const changed = await roundTrips(() => patch(path, { description: "second", tags: [relations.tags[0]] }));
      expect(changed.reply.status, changed.reply.text).to.equal(200);
      expect(changed.reply.body).to.deep.equal(await shownByRead(path, changed.reply.body));
      expect(changed.reply.body.tags.map((t: { id: string }) => t.id)).to.deep.equal([relations.tags[0]]);
      if (!pipelined) return;
      expect(changed.writes, changed.writes.join("\n\n")).to.have.length(2);
      expect(changed.writes[0].join("\n")).to.match(/^select \* from "ipam_prefix"/m);
      expect(changed.writes[1].at(-1)).to.equal("COMMIT;");
    });
  });

  describe("the change record built in SQL is the one JavaScript builds", () => {
    const record = async (id: string, action: string) => {
      const { db } = await startTestServer();
      const found = await db("extras_objectchange").where({ changed_object_id: id, action });
      expect(found).to.have.length(1);
      const [r] = found;
      // An update changes when the object was last updated, and nothing else of it here.
      for (const data of [r.object_data, r.object_data_v2]) delete data.last_updated;
      return { repr: r.object_repr, type: r.changed_object_type, data: r.object_data, v2: r.object_data_v2, related: [r.related_object_type, r.related_object_id] };
    };
    /**
     * The record of `path`'s object of `type` made by a single create (SQL), and of its bulk
     * update changing nothing, made in JavaScript as a webhook of the update needs the object.
     */
    const both = async (path: string, type: string, body: Record<string, unknown>) => {
      const sent = await sentStatements(() => post(path, body));
      const made = sent.reply;
      expect(made.status, made.text).to.equal(201);
      // Built in SQL, by one attempt: not the ordinary way's record after a presumption failed.
      expect(sent.sql.filter((sql) => sql === "BEGIN;")).to.have.length(1);
      expect(sent.sql.filter((sql) => sql.startsWith('INSERT INTO "extras_objectchange"'))[0]).to.include("FROM unnest(");
      const hook = await post("/api/extras/webhooks/", { name: uniq("trip hook"), content_types: [type], type_update: true, payload_url: "http://127.0.0.1:9/trip-hook" });
      expect(hook.status, hook.text).to.equal(201);
      try {
        const updated = await sentStatements(() => patch(path, [{ id: made.body.id }]));
        expect(updated.reply.status).to.equal(200);
        expect(updated.sql.filter((sql) => /^(WITH [a-z]+ AS \()?INSERT INTO "extras_objectchange"/.test(sql))[0]).to.include("jsonb_populate_recordset");
      } finally {
        await del(`/api/extras/webhooks/${hook.body.id}/`);
        // Nothing listens there: the delivery is taken off the queue.
        const { db } = await startTestServer();
        await db("armature_tasks").where("kind", "webhook").whereRaw("payload::text LIKE ?", ["%127.0.0.1:9/trip-hook%"]).del();
      }
      return { made: made.body, sql: await record(made.body.id, "create"), js: await record(made.body.id, "update") };
    };

    it("a prefix: its relations and tags, choices by value, related objects by id", async () => {
      const { made, sql, js } = await both("/api/ipam/prefixes/", "ipam.prefix", { prefix: prefix(), status: "active", description: "ümlaut \"quoted\" ✓", ...relations });
      expect(sql).to.deep.equal(js);
      expect(sql.data.tags).to.have.length(2);
      expect(sql.data.site).to.equal(relations.site);
      expect(sql.data.status).to.equal("active");
      expect(sql.v2.url).to.equal(`/api/ipam/prefixes/${made.id}/`);
      expect(sql.repr).to.equal(made.display);
    });

    it("recorded against a related object: an interface template's device type", async () => {
      const maker = (await post("/api/dcim/manufacturers/", { name: uniq("trip maker") })).body;
      const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: uniq("trip type") })).body;
      const { sql, js } = await both("/api/dcim/interface-templates/", "dcim.interfacetemplate", { device_type: type.id, name: "eth0", type: "1000base-t" });
      expect(sql).to.deep.equal(js);
      expect(sql.related).to.deep.equal(["dcim.devicetype", type.id]);
    });
  });

  it("records show objects as a request-less serializer does: the demo data's site, without the relationship defined after it", async () => {
    const { db } = await startTestServer();
    const [site] = await db("extras_objectchange").where({ changed_object_type: "dcim.site", object_repr: "Berlin DC1", action: "create", change_context_detail: "demo-data" });
    // Nautobot serializes a recorded object with no request, so without its opt-in fields
    // (OptInFieldsMixin, nautobot/core/api/serializers.py); a read asked for them shows the
    // relationship the demo data defines after the site.
    expect(site.object_data_v2).to.include({ name: "Berlin DC1" }).and.not.have.any.keys("relationships", "computed_fields");
    const read = await get(`/api/dcim/sites/${site.changed_object_id}/?include=relationships`);
    expect(read.body.relationships.site_vrfs.destination.objects.map((o: { display: string }) => o.display)).to.deep.equal(["Customer A (64512:1)"]);
    // One record of each, as the other sites'.
    expect(await rows("extras_objectchange", { change_context_detail: "demo-data", changed_object_type: "dcim.site" })).to.equal(demo.inventory.filter((f) => f.model === "dcim.site").length);
  });

  it("a constrained user's create: one round trip, the permission check presumed; one outside the constraints refused 403, nothing left", async () => {
    const server = await startTestServer();
    const { key: token } = await server.user(uniq("trip limited"), { grants: [{ object_types: ["ipam.prefix"], actions: ["view", "add"], constraints: { status: "active" } }] });
    const body = () => ({ prefix: prefix(), status: "active", site: relations.site, vrf: relations.vrf });
    await post("/api/ipam/prefixes/", body(), { token });
    const made = await roundTrips(() => post("/api/ipam/prefixes/", body(), { token }));
    expect(made.reply.status, made.reply.text).to.equal(201);
    expect(await rows("extras_objectchange", { changed_object_id: made.reply.body.id, action: "create" })).to.equal(1);
    if (pipelined) {
      expect(made.writes, made.writes.join("\n\n")).to.have.length(1);
      expect(made.writes[0].join("\n")).to.match(/^SELECT armature_presume\(\(SELECT count\(\*\)::int FROM "ipam_prefix" t0/m);
    } else expect(made.writes).to.deep.equal([]);

    const outside = { ...body(), status: "reserved" };
    const [prefixes, changes] = [await rows("ipam_prefix", { vrf_id: relations.vrf }), await rows("extras_objectchange")];
    const refused = await post("/api/ipam/prefixes/", outside, { token });
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.body).to.deep.equal({ detail: "You do not have permission to perform this action." });
    expect(await rows("ipam_prefix", { prefix: outside.prefix, vrf_id: relations.vrf })).to.equal(0);
    expect([await rows("ipam_prefix", { vrf_id: relations.vrf }), await rows("extras_objectchange")]).to.deep.equal([prefixes, changes]);
  });

  it("a bulk create: its savepoint goes with its insert, and what its change records need read with its references", async () => {
    const bulk = () => Array.from({ length: 5 }, () => ({ prefix: prefix(), status: "active", site: relations.site, tags: relations.tags }));
    await post("/api/ipam/prefixes/", bulk());
    const made = await roundTrips(() => post("/api/ipam/prefixes/", bulk()));
    expect(made.reply.status, made.reply.text).to.equal(201);
    expect(await rows("extras_objectchange", { changed_object_id: made.reply.body[4].id, action: "create" })).to.equal(1);
    if (!pipelined) return expect(made.writes).to.deep.equal([]);
    const texts = made.writes.map((w) => w.join("\n"));
    // The references, the webhooks and job hooks that may follow: one statement, the first.
    expect(texts[0]).to.include('FROM "dcim_site" t0').and.include('"extras_webhook"');
    expect(texts.filter((t) => t.includes('"extras_webhook"')), texts.join("\n\n")).to.have.length(1);
    expect(made.writes.find((w) => w.length === 1 && /^SAVEPOINT /.test(w[0])), texts.join("\n\n")).to.equal(undefined);
    expect(texts.find((t) => /^SAVEPOINT /m.test(t))).to.match(/^INSERT INTO "ipam_prefix"/m);
    // The checks, the insert, the tags, the answer with the records made from its objects
    // (nothing follows from them: no webhook, no job hook), then the commit.
    expect(made.writes, texts.join("\n\n")).to.have.length(5);
    expect(texts[3]).to.match(/^WITH armature_answer AS MATERIALIZED /).and.include('INSERT INTO "extras_objectchange"');
    expect(texts[4]).to.equal("COMMIT;");
  });

  it("a row the database refuses when its statements went ahead is refused as before: a duplicate name, its tags not kept", async () => {
    const name = uniq("trip twin");
    expect((await post("/api/dcim/sites/", { name, status: "active" })).status).to.equal(201);
    const tags = await rows("extras_tag_assignment");
    const again = await post("/api/dcim/sites/", { name, status: "active", tags: [] });
    expect(again.status, again.text).to.equal(400);
    expect(again.body).to.deep.equal({ name: ["site with this name already exists."] });
    const site = (await post("/api/dcim/sites/", { name: uniq("trip other"), status: "active" })).body;
    const renamed = await patch(`/api/dcim/sites/${site.id}/`, { name, description: "renamed" });
    expect(renamed.status, renamed.text).to.equal(400);
    expect(renamed.body).to.deep.equal({ name: ["site with this name already exists."] });
    expect(await rows("dcim_site", { name })).to.equal(1);
    expect(await rows("extras_tag_assignment")).to.equal(tags);
  });
});
