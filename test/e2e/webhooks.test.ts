// Webhook deliveries through the queue to a local HTTP(S) receiver: found for the events'
// content types and actions in one statement, rendered as Nautobot renders them (default
// body, template body, additional headers, HMAC-SHA512 signature the test verifies), sent
// with the webhook's method and TLS settings after the commit only, retried after a 500.
// The webhook definitions live in tables this test makes, described by a descriptor of its
// own whose columns are deliberately not the field names: the runtime must read them from it.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Knex } from "knex";
import type { ApiDescriptor, FieldDescriptor, ModelDescriptor } from "../../runtime/descriptor.js";
import type { Database } from "../../runtime/db/connect.js";
import { Worker } from "../../runtime/queue/worker.js";
import { enqueueWebhooks, WEBHOOK_TASK, type ChangeEvent } from "../../runtime/features/webhooks/index.js";
import { webhookHandler } from "../../runtime/features/webhooks/deliver.js";
import { attemptsOf, engine, queueDatabase, waitFor } from "../support/queue.js";

const T = "hooktest";
const REGISTRY = { table: `${T}_contenttype`, appLabel: "ct_app", model: "ct_model" };
const SCALARS: Record<string, "string" | "text" | "boolean"> = {
  name: "string", type_create: "boolean", type_update: "boolean", type_delete: "boolean", payload_url: "string", enabled: "boolean",
  http_method: "string", http_content_type: "string", additional_headers: "text", body_template: "text", secret: "string",
  ssl_verification: "boolean", ca_file_path: "string",
};
const column = (field: string) => `wh_${field}`;

function field(name: string, rest: Record<string, unknown>): FieldDescriptor {
  return { name, label: name, required: false, nullable: true, readOnly: false, ...rest } as FieldDescriptor;
}

const webhookModel = {
  key: "hooks.hook", name: "Hook", app: "hooks", route: "hooks", table: `${T}_hook`, verboseName: "hook", sentenceName: "hook", description: "",
  display: [], ordering: [], features: { tags: false, customFields: false, changeLogged: false, tree: false, ownedByRequester: false },
  fields: [
    field("id", { kind: "id" }),
    ...Object.entries(SCALARS).map(([name, type]) => field(name, { kind: "scalar", type, column: column(name) })),
    field("content_types", { kind: "contentTypes", models: ["ipam.prefix", "dcim.site"], through: { table: `${T}_hook_types`, source: "hook", target: "ct" }, registry: REGISTRY }),
  ],
  nested: [], brief: [], filters: [], uniqueTogether: [], operations: [],
  components: { full: "", nested: "", brief: "", write: "", patch: "", list: "" },
} satisfies ModelDescriptor;

const api = {
  name: "hooktest", title: "", description: "", profile: "drf", basePath: "/", apps: ["hooks"], rootLinks: [], versions: { default: "1", supported: ["1"] },
  settings: {}, webhooks: webhookModel.key, models: [webhookModel], openapiFiles: {}, openapi: {}, migrations: [], appMigrations: [],
} satisfies ApiDescriptor;

async function createTables(db: Knex): Promise<void> {
  await db.raw(`DROP TABLE IF EXISTS ${T}_hook_types, ${T}_hook, ${T}_contenttype`);
  await db.raw(`CREATE TABLE ${T}_contenttype (id serial PRIMARY KEY, ct_app text NOT NULL, ct_model text NOT NULL)`);
  await db.raw(`INSERT INTO ${T}_contenttype (ct_app, ct_model) VALUES ('ipam', 'prefix'), ('dcim', 'site')`);
  const cols = Object.entries(SCALARS).map(([name, type]) => `${column(name)} ${type === "boolean" ? "boolean" : "text"}`);
  await db.raw(`CREATE TABLE ${T}_hook (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), ${cols.join(", ")})`);
  await db.raw(`CREATE TABLE ${T}_hook_types (hook uuid NOT NULL REFERENCES ${T}_hook ON DELETE CASCADE, ct integer NOT NULL REFERENCES ${T}_contenttype)`);
}

interface Hook {
  name: string; payload_url: string; types?: string[]; type_create?: boolean; type_update?: boolean; type_delete?: boolean; enabled?: boolean;
  http_method?: string; http_content_type?: string; additional_headers?: string; body_template?: string; secret?: string;
  ssl_verification?: boolean; ca_file_path?: string | null;
}

async function addHook(db: Knex, h: Hook): Promise<string> {
  const values = {
    name: h.name, payload_url: h.payload_url, type_create: h.type_create ?? true, type_update: h.type_update ?? true, type_delete: h.type_delete ?? true,
    enabled: h.enabled ?? true, http_method: h.http_method ?? "POST", http_content_type: h.http_content_type ?? "application/json",
    additional_headers: h.additional_headers ?? "", body_template: h.body_template ?? "", secret: h.secret ?? "",
    ssl_verification: h.ssl_verification ?? true, ca_file_path: h.ca_file_path ?? null,
  };
  const [{ id }] = await db(`${T}_hook`).insert(Object.fromEntries(Object.entries(values).map(([k, v]) => [column(k), v]))).returning("id");
  await db.raw(
    `INSERT INTO ${T}_hook_types (hook, ct) SELECT ?, id FROM ${T}_contenttype WHERE ct_app || '.' || ct_model = ANY(?::text[])`,
    [id, h.types ?? ["ipam.prefix"]],
  );
  return id;
}

interface Received { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }

/** An HTTP (or, given a key and certificate, HTTPS) server recording requests, answering each with the next of `statuses` (then 200). */
async function receiver(statuses: number[] = [], tls?: { key: Buffer; cert: Buffer }): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "ok" : "boom");
    });
  };
  const server = tls ? https.createServer(tls, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    got,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const time = new Date("2024-05-01T10:20:30.123Z");

function prefixEvent(action: ChangeEvent["action"], over: Partial<ChangeEvent> = {}): ChangeEvent {
  const before = { id: "p1", prefix: "10.0.0.0/24", status: "reserved", last_updated: "2024-05-01T10:00:00Z" };
  const after = { id: "p1", prefix: "10.0.0.0/24", status: "active", last_updated: "2024-05-01T10:20:30Z" };
  return {
    action, model: "ipam.prefix", objectId: "p1", time, username: "admin", requestId: "8d4c1f0e-0000-4000-8000-000000000001",
    data: action === "delete" ? before : after,
    prechange: action === "create" ? null : before,
    postchange: action === "delete" ? null : after,
    ...over,
  };
}

async function webhookTasks(db: Knex): Promise<Array<{ id: string; state: string; payload: any }>> {
  return db("armature_tasks").where("kind", WEBHOOK_TASK).orderBy("armature_tasks.id").select(db.raw("id::text AS id"), "state", "payload");
}

describe(`webhooks (${engine})`, () => {
  let db: Database;
  let worker: Worker | undefined;
  const errors: unknown[] = [];
  const startWorker = (settings: ConstructorParameters<typeof Worker>[2] = {}, timeoutMs = 10_000) => {
    worker = new Worker(db.knex, { [WEBHOOK_TASK]: webhookHandler({ timeoutMs }) }, { pollMs: 3_600_000, retryBaseMs: 20, ...settings }, (e) => errors.push(e)).start();
  };
  const commit = (events: ChangeEvent[]) => db.knex.transaction((trx) => enqueueWebhooks(trx, api, events));

  before(async () => {
    db = await queueDatabase();
  });
  beforeEach(async () => {
    await db.knex("armature_tasks").where("kind", WEBHOOK_TASK).del();
    await createTables(db.knex);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  after(async () => {
    await db.knex("armature_tasks").where("kind", WEBHOOK_TASK).del();
    await db.knex.raw(`DROP TABLE IF EXISTS ${T}_hook_types, ${T}_hook, ${T}_contenttype`);
    await db.close();
  });

  it("finds the enabled webhooks of every event's content type and action in one statement, and enqueues in one more", async () => {
    await addHook(db.knex, { name: "a-prefix-any", payload_url: "http://127.0.0.1:9/a" });
    await addHook(db.knex, { name: "b-disabled", payload_url: "http://127.0.0.1:9/b", enabled: false });
    await addHook(db.knex, { name: "c-prefix-delete", payload_url: "http://127.0.0.1:9/c", type_create: false, type_update: false });
    await addHook(db.knex, { name: "d-site", payload_url: "http://127.0.0.1:9/d", types: ["dcim.site"] });
    await addHook(db.knex, { name: "e-both-update", payload_url: "http://127.0.0.1:9/e", types: ["ipam.prefix", "dcim.site"], type_create: false, type_delete: false });
    const statements: string[] = [];
    await db.knex.transaction(async (trx) => {
      trx.on("query", (q: { sql: string }) => { if (!/^(BEGIN|COMMIT)/i.test(q.sql)) statements.push(q.sql); });
      await enqueueWebhooks(trx, api, [
        prefixEvent("update"),
        prefixEvent("create", { objectId: "p2" }),
        prefixEvent("create", { objectId: "p3" }),
        { ...prefixEvent("delete"), model: "dcim.site", objectId: "s1" },
      ]);
    });
    expect(statements).to.have.length(2);
    const tasks = await webhookTasks(db.knex);
    expect(tasks.map((t) => `${t.payload.webhook.name}: ${t.payload.about}`)).to.deep.equal([
      "a-prefix-any: updated ipam.prefix p1",
      "e-both-update: updated ipam.prefix p1",
      "a-prefix-any: created ipam.prefix p2",
      "a-prefix-any: created ipam.prefix p3",
      "d-site: deleted dcim.site s1",
    ]);

    statements.length = 0;
    await db.knex.transaction(async (trx) => {
      trx.on("query", (q: { sql: string }) => { if (!/^(BEGIN|COMMIT)/i.test(q.sql)) statements.push(q.sql); });
      await enqueueWebhooks(trx, api, [{ ...prefixEvent("create"), model: "ipam.vlan" }]);
    });
    expect(statements, "nothing matches: nothing to enqueue").to.have.length(1);
  });

  it("a rolled-back write sends nothing; a committed one sends Nautobot's body, headers and a valid signature", async () => {
    const rx = await receiver();
    try {
      await addHook(db.knex, {
        name: "signed", payload_url: `${rx.url}/hook/?x=1`, secret: "s3cret",
        additional_headers: "X-Model: {{ model }}\ncontent-type: application/json; charset=utf-8\n\nAuthorization: Bearer a:b",
      });
      startWorker();
      const failed = await db.knex.transaction(async (trx) => {
        await enqueueWebhooks(trx, api, [prefixEvent("update")]);
        throw new Error("refused");
      }).catch((e: Error) => e.message);
      expect(failed).to.equal("refused");
      expect(await webhookTasks(db.knex)).to.deep.equal([]);

      await commit([prefixEvent("update")]);
      const task = await waitFor("the delivery", async () => (await webhookTasks(db.knex)).find((t) => t.state === "succeeded"));
      expect(rx.got).to.have.length(1);
      const [req] = rx.got;
      expect(req.method).to.equal("POST");
      expect(req.url).to.equal("/hook/?x=1");
      expect(req.headers).to.include({ "content-type": "application/json; charset=utf-8", "x-model": "prefix", authorization: "Bearer a:b" });
      expect(req.headers["content-length"]).to.equal(String(req.body.length));
      expect(req.headers["x-hook-signature"]).to.equal(createHmac("sha512", "s3cret").update(req.body).digest("hex"));
      expect(req.body.toString("utf8")).to.equal(
        `{"event": "updated", "timestamp": "2024-05-01 10:20:30.123000+00:00", "model": "prefix", "username": "admin", ` +
        `"request_id": "8d4c1f0e-0000-4000-8000-000000000001", "data": {"id": "p1", "prefix": "10.0.0.0/24", "status": "active", "last_updated": "2024-05-01T10:20:30Z"}, ` +
        `"snapshots": {"prechange": {"id": "p1", "prefix": "10.0.0.0/24", "status": "reserved", "last_updated": "2024-05-01T10:00:00Z"}, ` +
        `"postchange": {"id": "p1", "prefix": "10.0.0.0/24", "status": "active", "last_updated": "2024-05-01T10:20:30Z"}, ` +
        `"differences": {"removed": {"status": "reserved"}, "added": {"status": "active"}}}}`,
      );
      expect(JSON.stringify(task.payload)).to.not.include("s3cret");
      const attempts = await attemptsOf(db.knex, task.id);
      expect(attempts.map((a) => [a.outcome, a.status_code, a.detail])).to.deep.equal([["succeeded", 200, "Status 200 returned, webhook successfully processed."]]);
    } finally {
      await rx.close();
    }
  });

  it("sends the body template rendered, with the webhook's method and content type", async () => {
    const rx = await receiver();
    try {
      await addHook(db.knex, {
        name: "templated", payload_url: `${rx.url}/t`, http_method: "PUT", http_content_type: "text/plain",
        body_template: "{{ event }} {{ model }} {{ data.prefix }} by {{ username }}: {{ snapshots.differences.added | tojson }}{% if snapshots.prechange is none %} (new){% endif %}",
      });
      startWorker();
      await commit([prefixEvent("create"), prefixEvent("delete")]);
      await waitFor("both deliveries", async () => rx.got.length === 2);
      expect(rx.got.map((r) => [r.method, r.headers["content-type"], r.body.toString("utf8"), r.headers["x-hook-signature"]])).to.have.deep.members([
        ["PUT", "text/plain", `created prefix 10.0.0.0/24 by admin: {"id": "p1", "prefix": "10.0.0.0/24", "status": "active", "last_updated": "2024-05-01T10:20:30Z"} (new)`, undefined],
        ["PUT", "text/plain", "deleted prefix 10.0.0.0/24 by admin: null", undefined],
      ]);
    } finally {
      await rx.close();
    }
  });

  it("retries after the receiver answers 500, with the same request, and records both attempts", async () => {
    const rx = await receiver([500]);
    try {
      await addHook(db.knex, { name: "flaky", payload_url: `${rx.url}/f`, secret: "k" });
      startWorker();
      await commit([prefixEvent("update")]);
      const task = await waitFor("the retried delivery", async () => (await webhookTasks(db.knex)).find((t) => t.state === "succeeded"));
      expect(rx.got).to.have.length(2);
      expect(rx.got[1].body.equals(rx.got[0].body)).to.equal(true);
      expect(rx.got[1].headers["x-hook-signature"]).to.equal(rx.got[0].headers["x-hook-signature"]);
      const attempts = await attemptsOf(db.knex, task.id);
      expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code, a.detail])).to.deep.equal([
        [1, "failed", 500, "Status 500 returned with content 'boom', webhook FAILED to process."],
        [2, "succeeded", 200, "Status 200 returned, webhook successfully processed."],
      ]);
    } finally {
      await rx.close();
    }
  });

  it("a delivery that cannot be made fails at once, unsent; one without an answer fails at its deadline", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const rx = await receiver();
    try {
      await addHook(db.knex, { name: "bad-template", payload_url: `${rx.url}/x`, body_template: "{{ data.prefix" });
      await addHook(db.knex, { name: "bad-header", payload_url: `${rx.url}/x`, additional_headers: "no colon here" });
      await addHook(db.knex, { name: "bad-url", payload_url: "ftp://127.0.0.1/x" });
      await addHook(db.knex, { name: "silent", payload_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/` });
      startWorker({ maxAttempts: 1 }, 300);
      await commit([prefixEvent("update")]);
      const tasks = await waitFor("all four to fail", async () => {
        const rows = await webhookTasks(db.knex);
        return rows.length === 4 && rows.every((t) => t.state === "failed") ? rows : undefined;
      });
      expect(rx.got).to.deep.equal([]);
      const details = await Promise.all(tasks.map(async (t) => [t.payload.webhook.name, (await attemptsOf(db.knex, t.id)).map((a) => a.detail)]));
      expect(Object.fromEntries(details)).to.deep.equal({
        "bad-header": ['Error parsing HTTP headers for webhook bad-header: "no colon here" is not a header line (Name: value).'],
        "bad-template": [(details.find(([n]) => n === "bad-template")![1] as string[])[0]],
        "bad-url": ['The payload URL "ftp://127.0.0.1/x" is not http or https.'],
        silent: ["No answer within 0.3 s."],
      });
      expect((details.find(([n]) => n === "bad-template")![1] as string[])[0]).to.match(/^Error rendering request body for webhook bad-template: /);
    } finally {
      silent.closeAllConnections();
      silent.close();
      await rx.close();
    }
  });

  describe("over HTTPS", () => {
    let dir: string;
    let tls: { key: Buffer; cert: Buffer };
    before(function () {
      dir = mkdtempSync(join(tmpdir(), "armature-webhook-tls-"));
      try {
        execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
          "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
      } catch {
        this.skip();
      }
      tls = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("verifies the certificate unless told not to, against the CA file when one is named", async () => {
      const rx = await receiver([], tls);
      try {
        await addHook(db.knex, { name: "verified-system-ca", payload_url: `${rx.url}/a` });
        await addHook(db.knex, { name: "verified-own-ca", payload_url: `${rx.url}/b`, ca_file_path: join(dir, "cert.pem") });
        await addHook(db.knex, { name: "unverified", payload_url: `${rx.url}/c`, ssl_verification: false });
        startWorker({ maxAttempts: 1 });
        await commit([prefixEvent("update")]);
        const tasks = await waitFor("all three to end", async () => {
          const rows = await webhookTasks(db.knex);
          return rows.length === 3 && rows.every((t) => t.state !== "queued" && t.state !== "running") ? rows : undefined;
        });
        expect(Object.fromEntries(tasks.map((t) => [t.payload.webhook.name, t.state]))).to.deep.equal({
          "verified-system-ca": "failed", "verified-own-ca": "succeeded", unverified: "succeeded",
        });
        expect(rx.got.map((r) => r.url).sort()).to.deep.equal(["/b", "/c"]);
        const refused = tasks.find((t) => t.payload.webhook.name === "verified-system-ca")!;
        expect((await attemptsOf(db.knex, refused.id))[0].detail).to.match(/self[- ]signed/i);
      } finally {
        await rx.close();
      }
    });
  });
});
