// What the server records and sends for writes: every create, update and delete of a
// change-logged model, through any route (single, bulk, nested, allocation, cascades), leaves
// an object change in the write's transaction (a refused or rolled-back write leaves none),
// and a webhook naming the model and action is delivered after the commit, by a queue worker,
// signed, once, and again after a receiver error.
import http from "node:http";
import { createHmac, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "chai";
import { configFromEnv } from "../../../runtime/config.js";
import { Worker } from "../../../runtime/queue/worker.js";
import { periodicTasks, taskHandlers } from "../../../runtime/features/index.js";
import { apis } from "../../../generated/server.js";
import { enginesOn } from "../../../runtime/engine.js";
import { call, del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { sentStatements } from "../../support/statements.js";
import { uniq } from "./support.js";

const SITES = "/api/dcim/sites/";
const CHANGES = "/api/extras/object-changes/";

/** The object changes a request made, oldest first. */
async function changesOf(requestId: string): Promise<any[]> {
  const list = await get(`${CHANGES}?request_id=${requestId}&limit=1000`);
  expect(list.status, list.text).to.equal(200);
  return list.body.results.reverse();
}

/** Records of a request, read from the table (the API shows fewer fields than are kept). */
async function records(requestId: string): Promise<any[]> {
  const { db } = await startTestServer();
  return db("extras_objectchange").where("request_id", requestId).orderBy("time");
}

const asRequest = (id: string) => ({ headers: { "X-Request-Id": id } });

describe("inventory e2e: change records and webhooks", () => {
  const tag = uniq("chg").toLowerCase();

  it("a create, an update and a delete each leave a record with the request's id, the user and the object", async () => {
    const created = randomUUID();
    const site = await call("POST", SITES, { body: { name: `${tag}-one`, status: "active", description: "first" }, ...asRequest(created) });
    expect(site.status, site.text).to.equal(201);
    const [c] = await changesOf(created);
    expect(c).to.deep.include({
      user_name: "admin", request_id: created, action: { value: "create", label: "Created" },
      changed_object_type: "dcim.site", changed_object_id: site.body.id,
    });
    expect(c.changed_object).to.deep.include({ id: site.body.id, name: `${tag}-one` });
    expect(c.object_data).to.deep.include({ name: `${tag}-one`, slug: `${tag}-one`, status: "active", description: "first", tags: [] });
    const [row] = await records(created);
    expect(row.object_repr).to.equal(`${tag}-one`);
    expect(row.change_context).to.equal("api");
    expect(row.change_context_detail).to.equal("dcim-api:site-list");
    // The API's full shape of the latest version, with links relative to the API root.
    expect(row.object_data_v2).to.deep.include({ id: site.body.id, url: `/api/dcim/sites/${site.body.id}/`, name: `${tag}-one` });

    const updated = randomUUID();
    expect((await call("PATCH", `${SITES}${site.body.id}/`, { body: { description: "second" }, ...asRequest(updated) })).status).to.equal(200);
    const [u] = await changesOf(updated);
    expect(u.action.value).to.equal("update");
    expect(u.object_data.description).to.equal("second");
    expect((await records(updated))[0].change_context_detail).to.equal("dcim-api:site-detail");

    const deleted = randomUUID();
    expect((await call("DELETE", `${SITES}${site.body.id}/`, asRequest(deleted))).status).to.equal(204);
    const [d] = await changesOf(deleted);
    expect(d).to.deep.include({ changed_object_id: site.body.id, changed_object: null });
    expect(d.action.value).to.equal("delete");
    expect(d.object_data.description).to.equal("second");
  });

  it("a record shows the object as a request-less serializer does, in SQL, before, while and after a relationship changes the answers' shape", async () => {
    // Nautobot records (and sends webhooks) an object serialized with no request, which leaves
    // out the opt-in fields that a write's answer shows: computed fields and relationships
    // (OptInFieldsMixin, nautobot/core/api/serializers.py). A relationship on a model changes
    // what its answers show and the facts their statements are built on, not its records: each
    // is made in SQL, by the record statement kept from one create to the next (changes/index.ts
    // sentStatement), the first after the change included. Circuit types, as no other file
    // gives them a webhook or a job hook, either of which rightly sends every later create of
    // the model in the worker the ordinary way.
    const { db, url } = await startTestServer();
    const TYPES = "/api/circuits/circuit-types/";
    const requestLess = (object: Record<string, unknown>) => {
      const { computed_fields: _c, relationships: _r, ...rest } = object;
      return JSON.parse(JSON.stringify(rest).replaceAll(url, ""));
    };
    const createAndCompare = async (name: string) => {
      const { reply: made, sql } = await sentStatements(() => post(TYPES, { name }));
      expect(made.status, made.text).to.equal(201);
      expect(made.body, "a write answers with the opt-in fields").to.include.keys("computed_fields", "relationships");
      const [record] = await db("extras_objectchange").where({ changed_object_id: made.body.id, action: "create" });
      expect(record.object_data_v2, name).to.deep.equal(requestLess(made.body));
      expect(sql.filter((s) => s.includes("jsonb_populate_recordset")), `${name}: recorded in SQL`).to.deep.equal([]);
      return made.body;
    };
    await createAndCompare(`${tag}-shape-a1`);
    await createAndCompare(`${tag}-shape-a2`);
    const rel = await post("/api/extras/relationships/", { name: `${tag} shape`, slug: `${tag}-shape`, type: "one-to-many", source_type: "circuits.circuittype", destination_type: "circuits.provider" });
    expect(rel.status, rel.text).to.equal(201);
    try {
      for (const n of [1, 2, 3]) {
        const made = await createAndCompare(`${tag}-shape-b${n}`);
        expect(made.relationships, "the circuit type shows the new relationship").to.have.property(`${tag}-shape`);
      }
    } finally {
      expect((await del(`/api/extras/relationships/${rel.body.id}/`)).status).to.equal(204);
    }
    for (const n of [1, 2]) {
      const made = await createAndCompare(`${tag}-shape-c${n}`);
      expect(made.relationships).to.not.have.property(`${tag}-shape`);
    }
  });

  it("a device is recorded as DeviceSerializer shows it, without the config_context its answer has", async () => {
    // get_serializer_for_model gives serialize_object_v2 and the webhooks DeviceSerializer;
    // DeviceWithConfigContextSerializer, the API's, adds config_context.
    const { db } = await startTestServer();
    const site = (await post("/api/dcim/sites/", { name: `${tag}-dev-site`, status: "active" })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-dev-maker` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-dev-type` })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-dev-role` })).body;
    const made = await post("/api/dcim/devices/", { name: `${tag}-dev`, device_type: type.id, device_role: role.id, site: site.id, status: "active", local_context_data: { a: 1 } });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.config_context).to.deep.equal({ a: 1 });
    const [record] = await db("extras_objectchange").where({ changed_object_id: made.body.id, action: "create" });
    expect(record.object_data_v2).to.not.have.property("config_context");
    expect(record.object_data_v2).to.deep.include({ name: `${tag}-dev`, local_context_data: { a: 1 } });
  });

  // runtime/db/connect.ts asks the server for lz4 where it has it; PGlite is built without it.
  it("a large record is kept compressed with lz4 on PostgreSQL", async function () {
    const { db, engine } = await startTestServer();
    if (engine !== "postgresql") this.skip();
    const site = await post(SITES, { name: `${tag} large`, status: "active", comments: `${tag} `.repeat(1000) });
    expect(site.status, site.text).to.equal(201);
    const { rows } = await db.raw(
      "SELECT pg_column_compression(object_data) AS v1, pg_column_compression(object_data_v2) AS v2 FROM extras_objectchange WHERE changed_object_id = ?", [site.body.id]);
    expect(rows).to.deep.equal([{ v1: "lz4", v2: "lz4" }]);
    expect((await del(`${SITES}${site.body.id}/`)).status).to.equal(204);
  });

  it("a client's request id that is no UUID is recorded as one UUID for all of the request's changes", async () => {
    const given = `${tag}-req`;
    const res = await call("POST", SITES, { body: [{ name: `${tag}-r1`, status: "active" }, { name: `${tag}-r2`, status: "active" }], ...asRequest(given) });
    expect(res.status, res.text).to.equal(201);
    expect(res.headers.get("x-request-id")).to.equal(given);
    const { db } = await startTestServer();
    const made = await db("extras_objectchange").whereIn("changed_object_id", res.body.map((s: { id: string }) => s.id));
    expect(made).to.have.length(2);
    expect(new Set(made.map((r: { request_id: string }) => r.request_id)).size).to.equal(1);
  });

  it("a bulk create records each element; a bulk create with a bad element records nothing", async () => {
    const good = randomUUID();
    const bulk = await call("POST", SITES, { body: [1, 2, 3].map((n) => ({ name: `${tag}-b${n}`, status: "active" })), ...asRequest(good) });
    expect(bulk.status, bulk.text).to.equal(201);
    expect((await changesOf(good)).map((c) => c.changed_object_id)).to.deep.equal(bulk.body.map((s: { id: string }) => s.id));
    const bad = randomUUID();
    const refused = await call("POST", SITES, { body: [{ name: `${tag}-c1`, status: "active" }, { name: `${tag}-c2`, status: "nonsense" }], ...asRequest(bad) });
    expect(refused.status).to.equal(400);
    expect(await records(bad)).to.deep.equal([]);
  });

  it("a write the requester's permissions refuse records nothing", async () => {
    const server = await startTestServer();
    const { key } = await server.user(uniq(`${tag}-limited`), { grants: [{ object_types: ["dcim.site"], actions: ["view", "add"], constraints: { name__startswith: "allowed" } }] });
    const id = randomUUID();
    const res = await call("POST", SITES, { token: key, body: { name: `${tag}-refused`, status: "active" }, ...asRequest(id) });
    expect(res.status).to.equal(403);
    expect(await records(id)).to.deep.equal([]);
  });

  it("nested values belong to the object's record: a prefix's tags are in its data, as names", async () => {
    const tagged = (await post("/api/extras/tags/", { name: `${tag} Red`, content_types: ["ipam.prefix"] }, { headers: { Accept: "application/json; version=1.3" } })).body;
    const id = randomUUID();
    const prefix = await call("POST", "/api/ipam/prefixes/", { body: { prefix: "10.213.0.0/16", status: "active", tags: [{ id: tagged.id }] }, ...asRequest(id) });
    expect(prefix.status, prefix.text).to.equal(201);
    const all = await changesOf(id);
    expect(all.map((c) => c.changed_object_type)).to.deep.equal(["ipam.prefix"]);
    expect(all[0].object_data.tags).to.deep.equal([`${tag} Red`]);
  });

  it("objects a hook creates (available-ips) and those a delete takes along are recorded", async () => {
    const parent = (await post("/api/ipam/prefixes/", { prefix: "10.214.0.0/24", status: "active" })).body;
    const allocated = randomUUID();
    const ips = await call("POST", `/api/ipam/prefixes/${parent.id}/available-ips/`, { body: [{ status: "active" }, { status: "active" }], ...asRequest(allocated) });
    expect(ips.status, ips.text).to.equal(201);
    const made = await changesOf(allocated);
    expect(made.map((c) => [c.action.value, c.changed_object_type, c.changed_object_id])).to.deep.equal(ips.body.map((ip: { id: string }) => ["create", "ipam.ipaddress", ip.id]));
    expect((await records(allocated))[0].change_context_detail).to.equal("ipam-api:prefix-available-ips");

    const provider = (await post("/api/circuits/providers/", { name: `${tag} Carrier` })).body;
    const type = (await post("/api/circuits/circuit-types/", { name: `${tag} Transit` })).body;
    const site = (await post(SITES, { name: `${tag}-pop`, status: "active" })).body;
    const circuit = (await post("/api/circuits/circuits/", { cid: `${tag}-c1`, provider: provider.id, type: type.id, status: "active" })).body;
    const end = await post("/api/circuits/circuit-terminations/", { circuit: circuit.id, term_side: "A", site: site.id });
    expect(end.status, end.text).to.equal(201);
    // A termination's changes are also its circuit's (Nautobot's related_object), kept unseen.
    const { db } = await startTestServer();
    const [termination] = await db("extras_objectchange").where({ changed_object_id: end.body.id, action: "create" });
    expect([termination.related_object_type, termination.related_object_id]).to.deep.equal(["circuits.circuit", circuit.id]);
    const [own] = await db("extras_objectchange").where({ changed_object_id: circuit.id, action: "create" });
    expect([own.related_object_type, own.related_object_id]).to.deep.equal([null, null]);
    const removed = randomUUID();
    expect((await call("DELETE", `/api/circuits/circuits/${circuit.id}/`, asRequest(removed))).status).to.equal(204);
    const gone = (await changesOf(removed)).map((c) => [c.action.value, c.changed_object_type, c.changed_object_id]);
    expect(gone).to.have.deep.members([["delete", "circuits.circuit", circuit.id], ["delete", "circuits.circuittermination", end.body.id]]);
  });

  it("parallel allocations are each recorded as their own request's, a refused one not at all", async () => {
    const parent = (await post("/api/ipam/prefixes/", { prefix: "10.215.0.0/24", status: "active" })).body;
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // Sent together, they may share one allocation batch: one transaction, a savepoint each.
    const replies = await Promise.all(ids.map((id, n) => call("POST", `/api/ipam/prefixes/${parent.id}/available-ips/`, {
      body: { status: n === 2 ? "no-such-status" : "active", description: `${tag} parallel ${n}` }, ...asRequest(id),
    })));
    expect(replies.map((r) => r.status)).to.deep.equal([201, 201, 400, 201]);
    for (const [n, id] of ids.entries()) {
      const recorded = (await changesOf(id)).map((c) => c.changed_object_id);
      expect(recorded, `request ${n}`).to.deep.equal(n === 2 ? [] : [replies[n].body.id]);
    }
  });

  it("records past CHANGELOG_RETENTION days are purged by the queue workers' periodic task, not by writes", async () => {
    const { db } = await startTestServer();
    const old = randomUUID();
    await db("extras_objectchange").insert({
      time: new Date(Date.now() - 400 * 86400_000), user_name: "admin", request_id: old, action: "create",
      changed_object_type: "dcim.site", changed_object_id: randomUUID(), object_repr: "old", object_data: "{}", change_context: "api",
    });
    expect(await records(old)).to.have.length(1);
    expect((await post(SITES, { name: `${tag}-later`, status: "active" })).status).to.equal(201);
    // A write no longer looks for expired records: that cost every write a scan of the log.
    expect(await records(old)).to.have.length(1);
    const retention = periodicTasks({ config: configFromEnv({}), apis, engineOf: enginesOn(db) })["change log retention"];
    await retention(db);
    expect(await records(old)).to.deep.equal([]);
    // Records within the retention stay.
    expect(Number((await db("extras_objectchange").where("object_repr", `${tag}-later`).count({ n: "*" }).first())!.n)).to.equal(1);
  });

  describe("webhooks", () => {
    interface Received { method: string; headers: http.IncomingHttpHeaders; body: string }
    const received: Received[] = [];
    let failNext = 0;
    let receiver: http.Server;
    let target: string;
    const workers: Worker[] = [];

    before(async () => {
      receiver = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => { body += c.toString("utf8"); });
        req.on("end", () => {
          received.push({ method: req.method!, headers: req.headers, body });
          res.statusCode = failNext > 0 ? 500 : 200;
          if (failNext > 0) failNext--;
          res.end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { db } = await startTestServer();
      // Two workers on the one database, as two server instances would run them; retries soon.
      const config = configFromEnv();
      for (let i = 0; i < 2; i++) workers.push(new Worker(db, taskHandlers({ config, apis, engineOf: enginesOn(db) }), { ...config.queue, pollMs: 100, retryBaseMs: 200, retryMaxMs: 400 }).start());
    });

    after(async () => {
      for (const w of workers) await w.stop();
      await new Promise((resolve) => receiver.close(resolve));
    });

    /** The deliveries whose body names `name`, once `count` of them arrived (waits as long as the machine needs). */
    async function deliveriesOf(name: string, count: number): Promise<Received[]> {
      for (let waited = 0; waited < 60_000; waited += 50) {
        const mine = received.filter((r) => r.body.includes(name));
        if (mine.length >= count) return mine;
        await sleep(50);
      }
      throw new Error(`fewer than ${count} deliveries for ${name}`);
    }

    /**
     * The queue's deliveries to this test's receiver whose payload names `name`, once none of
     * them is still to run (other suites' webhooks on the same models send elsewhere).
     */
    async function settledTasks(name: string): Promise<Array<{ id: number; state: string; attempts: number }>> {
      const { db } = await startTestServer();
      for (let waited = 0; ; waited += 50) {
        const tasks = await db("armature_tasks").whereRaw("payload->>'url' = ? AND payload::text LIKE ?", [target, `%${name}%`]).orderBy("id");
        if (!tasks.some((t: { state: string }) => t.state === "queued" || t.state === "running") || waited > 60_000) return tasks;
        await sleep(50);
      }
    }

    it("a create is delivered after the commit, once, in Nautobot's body and signed with the secret", async () => {
      const hook = await post("/api/extras/webhooks/", {
        name: `${tag} sites`, content_types: ["dcim.site"], type_create: true, payload_url: target, secret: "s3cret",
      });
      expect(hook.status, hook.text).to.equal(201);
      const id = randomUUID();
      const site = await call("POST", SITES, { body: { name: `${tag}-hooked`, status: "active" }, ...asRequest(id) });
      expect(site.status).to.equal(201);
      const [delivery] = await deliveriesOf(`${tag}-hooked`, 1);
      expect(delivery.method).to.equal("POST");
      expect(delivery.headers["content-type"]).to.equal("application/json");
      expect(delivery.headers["x-hook-signature"]).to.equal(createHmac("sha512", "s3cret").update(delivery.body).digest("hex"));
      const body = JSON.parse(delivery.body);
      expect(body).to.deep.include({ event: "created", model: "site", username: "admin", request_id: id });
      expect(body.data).to.deep.include({ id: site.body.id, name: `${tag}-hooked` });
      expect(body.snapshots.prechange).to.equal(null);
      expect(body.snapshots.postchange).to.deep.include({ name: `${tag}-hooked` });
      // Each task was run by one of the two workers, in one attempt.
      expect((await settledTasks(`${tag}-hooked`)).map((t) => [t.state, t.attempts])).to.deep.equal([["succeeded", 1]]);
      // An update is no create: nothing is sent for it.
      expect((await patch(`${SITES}${site.body.id}/`, { description: "x" })).status).to.equal(200);
      expect(await settledTasks(`${tag}-hooked`)).to.have.length(1);
    });

    it("a rolled-back write enqueues nothing; an update carries the snapshots before and after", async () => {
      await post("/api/extras/webhooks/", { name: `${tag} updates`, content_types: ["dcim.region"], type_create: true, type_update: true, payload_url: target });
      const refused = await post("/api/dcim/regions/", [{ name: `${tag}-r-ok` }, { name: `${tag}-r-ok` }]);
      expect(refused.status).to.equal(400);
      const { db } = await startTestServer();
      expect(await db("armature_tasks").whereRaw("payload::text LIKE ?", [`%${tag}-r-ok%`])).to.deep.equal([]);
      const region = (await post("/api/dcim/regions/", { name: `${tag}-region` })).body;
      expect((await patch(`/api/dcim/regions/${region.id}/`, { description: "now described" })).status).to.equal(200);
      const both = await deliveriesOf(`${tag}-region`, 2);
      const update = both.map((d) => JSON.parse(d.body)).find((b) => b.event === "updated");
      expect(update.snapshots.prechange).to.deep.include({ description: "" });
      expect(update.snapshots.postchange).to.deep.include({ description: "now described" });
      expect(update.snapshots.differences.added).to.deep.equal({ description: "now described" });
      expect(update.snapshots.differences.removed).to.deep.equal({ description: "" });
    });

    it("a delivery the receiver refuses is retried until it is taken", async () => {
      await post("/api/extras/webhooks/", { name: `${tag} tenants`, content_types: ["tenancy.tenant"], type_create: true, payload_url: target });
      failNext = 1;
      expect((await post("/api/tenancy/tenants/", { name: `${tag}-tenant` })).status).to.equal(201);
      const deliveries = await deliveriesOf(`${tag}-tenant`, 2);
      expect(deliveries[0].body).to.equal(deliveries[1].body);
      const { db } = await startTestServer();
      const [task] = await settledTasks(`${tag}-tenant`);
      expect([task.state, task.attempts]).to.deep.equal(["succeeded", 2]);
      const attempts = await db("armature_task_attempts").where("task_id", task.id).orderBy("attempt");
      expect(attempts.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code])).to.deep.equal([["failed", 500], ["succeeded", 200]]);
      await del(`/api/tenancy/tenants/${(await get(`/api/tenancy/tenants/?name=${tag}-tenant`)).body.results[0].id}/`);
    });
  });
});
