// Writes no request makes run as system operations (Operations.system), through the whole
// write pipeline: `demo-data` leaves a change record of every object it created, with no user,
// the system's name, the command and one request id of its own; what it writes calls webhooks
// as any write does; createsuperuser writes as its own system operation. On a fresh embedded
// database of its own, so that every change-logged row there is one the commands wrote.
import { expect } from "chai";
import type { Database } from "../../runtime/db/connect.js";
import { migratedEmbeddedDatabase } from "../support/fresh-db.js";
import { ensureSuperuser, loadDemoOnce, profileCommand } from "../../runtime/cli.js";
import { loadFixtures } from "../../runtime/fixtures.js";
import { Operations, SYSTEM_NAME, type Actor } from "../../runtime/operations/index.js";
import { Store } from "../../runtime/store.js";
import { WEBHOOK_TASK } from "../../runtime/features/webhooks/index.js";
import { apis } from "../../generated/server.js";
import { demo } from "../../demo/index.js";

const inventory = apis.find((a) => a.changeLog)!;

describe("system operations: what the command line writes goes through the pipeline", () => {
  let db: Database;
  before(async () => {
    db = await migratedEmbeddedDatabase();
  });
  after(() => db.close());

  it("createsuperuser writes the user and its token as one system operation of its own", async () => {
    const seen: Array<{ model: string; actor: Actor | undefined }> = [];
    const create = Store.prototype.create;
    Store.prototype.create = function (this: Store, ...args: Parameters<Store["create"]>) {
      seen.push({ model: args[1].key, actor: args[0].actor });
      return create.apply(this, args);
    };
    try {
      await ensureSuperuser(db.knex, apis, "root", "root-password");
    } finally {
      Store.prototype.create = create;
    }
    expect(seen.map((s) => s.model)).to.deep.equal([inventory.auth!.users, inventory.auth!.tokens]);
    for (const { actor } of seen) {
      expect(actor).to.deep.include({ userId: null, username: SYSTEM_NAME, context: "orm", contextDetail: "createsuperuser" });
      expect(actor!.grants, "the system holds every permission").to.equal(undefined);
    }
    expect(seen[1].actor!.requestId).to.equal(seen[0].actor!.requestId);
  });

  it("create-app-password runs as a system operation, writing on its transaction (the one connection)", async () => {
    const line = await profileCommand(db.knex, apis, "create-app-password", { username: "root", name: "from a test" });
    expect(line).to.match(/^application password for root \(from a test\): (\w{4} ){5}\w{4}$/);
    const calendar = apis.find((a) => a.appPasswords)!;
    const passwords = calendar.models.find((m) => m.key === calendar.appPasswords)!;
    expect(Number((await db.knex(passwords.table).count({ n: "*" }).first())?.n)).to.equal(1);
  });

  it("demo-data leaves a create record of every change-logged object, with no user, as the system's, under one request id", async () => {
    expect(await loadDemoOnce(db.knex, apis, demo)).to.have.length(apis.length);
    const records = await db.knex("extras_objectchange").select("*");
    expect(new Set(records.map((r) => r.request_id)).size, "one request id for the whole command").to.equal(1);
    for (const r of records) {
      expect(r).to.deep.include({ user_id: null, user_name: SYSTEM_NAME, action: "create", change_context: "orm", change_context_detail: "demo-data" });
    }
    // One record for each object the fixtures name, each of an object that is there. (Components
    // a device type's templates give a device are not recorded, as Nautobot's bulk_create of
    // them sends no signal.)
    const logged = new Set(inventory.models.filter((m) => m.features.changeLogged && m.key !== inventory.changeLog).map((m) => m.key));
    const fixtures = demo.inventory.filter((f) => logged.has(f.model));
    expect(records).to.have.length(fixtures.length);
    const count = (key: string, list: Array<{ model?: string; changed_object_type?: string }>) => list.filter((x) => (x.model ?? x.changed_object_type) === key).length;
    for (const key of new Set(fixtures.map((f) => f.model))) expect(count(key, records), key).to.equal(count(key, fixtures));
    for (const r of records) {
      const m = inventory.models.find((x) => x.key === r.changed_object_type)!;
      expect(await db.knex(m.table).where("id", r.changed_object_id).first(), `${m.key} ${r.object_repr}`).to.not.equal(undefined);
    }
    // A record shows its object as a serializer given no request does: without the opt-in
    // fields, the relationship defined after the site in the same operation among them.
    const site = records.find((r) => r.changed_object_type === "dcim.site" && r.object_repr === "Berlin DC1");
    expect(site.object_data_v2).to.include({ name: "Berlin DC1" }).and.not.have.any.keys("relationships", "computed_fields");
  });

  it("a system operation's writes call webhooks, as the system's, with its request id", async () => {
    const operation = Operations.system("fixtures");
    await new Operations(db.knex).run(operation, (trx) => loadFixtures(trx, inventory, [
      { model: "extras.webhook", data: { name: "system hook", content_types: ["dcim.site"], type_create: true, payload_url: "http://127.0.0.1:9/hook" } },
      { model: "dcim.site", data: { name: "System Site", status: "active" } },
    ]));
    const deliveries = await db.knex("armature_tasks").where("kind", WEBHOOK_TASK).select("payload");
    const told = deliveries.map((d) => JSON.stringify(d.payload)).filter((p) => p.includes("System Site"));
    expect(told).to.have.length(1);
    expect(told[0]).to.include(`\\"username\\": \\"${SYSTEM_NAME}\\"`).and.include(operation.requestId);
    const [record] = await db.knex("extras_objectchange").where({ changed_object_type: "dcim.site", object_repr: "System Site" });
    expect(record).to.deep.include({ user_id: null, user_name: SYSTEM_NAME, request_id: operation.requestId, change_context_detail: "fixtures" });
  });
});
