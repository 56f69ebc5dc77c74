// The operator's commands as processes: `health_check` exits 0 when everything works and 1
// naming what does not (migrations not applied, no queue worker seen, media not writable);
// `upgrade` migrates and removes stale content types and expired browser sessions, as
// change-logged system operations; `shell` takes statements piped into it and writes through
// the write pipeline. On the embedded database in a folder of the test's own (a copy of the
// run's template, test/support/data-dirs.ts), or on a database of its own on the PostgreSQL
// server of DATABASE_URL; never migrated for the first test, for the rest migrated with an
// administrator, as `armature createsuperuser` leaves a new one.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import knex, { type Knex } from "knex";
import { builtCli } from "../support/build.js";
import { dataDirFrom, TEMPLATE_ADMIN, type Template } from "../support/data-dirs.js";

const work = mkdtempSync(join(tmpdir(), "armature-operator-"));
const postgresUrl = process.env.DATABASE_URL;

/** Where the commands' database is: a PGlite directory, or a PostgreSQL database's URL. */
interface Target { dataDir: string; databaseUrl?: string }
const made: Target[] = [];
let target: Target;

const envOn = (t: Target, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: t.dataDir, MEDIA_ROOT: join(work, "media"), ...extra };
  if (t.databaseUrl) e.DATABASE_URL = t.databaseUrl;
  else delete e.DATABASE_URL;
  return e;
};
const env = (extra: NodeJS.ProcessEnv = {}) => envOn(target, extra);

async function adminSql(sql: string): Promise<void> {
  const admin = knex({ client: "pg", connection: postgresUrl });
  await admin.raw(sql).finally(() => admin.destroy());
}

/** A database of the test's own as `start` says (on PostgreSQL, an empty one migrated the template's way). */
async function database(start: Template): Promise<Target> {
  if (!postgresUrl) {
    const t = { dataDir: await dataDirFrom(start, "armature-operator-db-") };
    made.push(t);
    return t;
  }
  const name = `ops_${start}_${process.pid}`;
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  await adminSql(`DROP DATABASE IF EXISTS ${name}`);
  await adminSql(`CREATE DATABASE ${name}`);
  const t = { dataDir: join(work, "unused"), databaseUrl: url.toString() };
  made.push(t);
  if (start === "migrated") {
    const ran = await armature(["createsuperuser", "--username", TEMPLATE_ADMIN.username, "--password", TEMPLATE_ADMIN.password], { env: envOn(t) });
    expect(ran.code, ran.out + ran.err).to.equal(0);
  }
  return t;
}

async function drop(t: Target): Promise<void> {
  if (t.databaseUrl) await adminSql(`DROP DATABASE IF EXISTS ${new URL(t.databaseUrl).pathname.slice(1)}`);
  else rmSync(t.dataDir, { recursive: true, force: true });
}

interface Ran { code: number | null; out: string; err: string }

/** A command of the built command line under plain node (tsx would compile the sources again in each), to its end. */
async function armature(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Ran> {
  const cli = await builtCli();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: opts.env ?? env() });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
    child.stdin.end(opts.input ?? "");
  });
}

/** The test's database, opened by the test only while no command has the embedded one open. */
async function withDb<T>(work: (db: Knex) => Promise<T>): Promise<T> {
  const { openDatabase } = await import("../../runtime/db/connect.js");
  const db = await openDatabase(target);
  try {
    return await work(db.knex);
  } finally {
    await db.close();
  }
}

describe("operator commands: health_check, upgrade, shell", function () {
  this.timeout(900_000);

  after(async () => {
    for (const t of made) await drop(t);
    rmSync(work, { recursive: true, force: true });
  });

  describe("never migrated", () => {
    before(async () => {
      target = await database("initialized");
    });

    it("health_check: exit 1 naming the migrations on a database never migrated", async () => {
      const ran = await armature(["health_check"]);
      expect(ran.code, ran.out + ran.err).to.equal(1);
      expect(ran.out).to.match(/^migrations: \d+ pending$/m).and.match(/^queue worker: /m).and.include("unhealthy: migrations");
    });

    it("health_check: exit 1 naming the database when it cannot be reached", async () => {
      // A port nothing listens on: the connection is refused at once.
      const ran = await armature(["health_check"], { env: { ...env(), DATABASE_URL: "postgresql://postgres@127.0.0.1:1/armature" } });
      expect(ran.code, ran.out + ran.err).to.equal(1);
      expect(ran.out).to.match(/^database: unavailable \(ECONNREFUSED\)$/m).and.include("migrations: unknown").and.include("unhealthy: database");
    });

    it("upgrade: applies the migrations of a database never migrated, which health_check then finds applied", async () => {
      const ran = await armature(["upgrade"]);
      expect(ran.code, ran.out + ran.err).to.equal(0);
      expect(ran.out).to.match(/^migrated: \d+ migrations \((?=.*armature \d+)(?=.*inventory \d+)(?=.*calendar \d+).*\)$/m);
      const checked = await armature(["health_check"]);
      expect(checked.out, checked.out + checked.err).to.include("migrations: working");
    });
  });

  describe("migrated, with an administrator", () => {
    before(async () => {
      target = await database("migrated");
    });

    it("health_check: exit 1 naming the queue worker while none was seen, 0 once one is marked, 1 naming media when its folder is not writable", async () => {
      const noWorker = await armature(["health_check"]);
      expect(noWorker.code).to.equal(1);
      expect(noWorker.out).to.include("database: working").and.include("migrations: working").and.match(/^queue worker: no worker seen/m)
        .and.include("media: working").and.include("unhealthy: queue worker");
      // A worker's mark, as a running worker leaves it (runtime/queue/workers.ts).
      const { markSeen } = await import("../../runtime/queue/workers.js");
      await withDb((db) => markSeen(db, "test-worker"));
      const healthy = await armature(["health_check"]);
      expect(healthy.code, healthy.out + healthy.err).to.equal(0);
      expect(healthy.out.trim().split("\n")).to.deep.equal(["database: working", "migrations: working", "queue worker: working", "media: working", "healthy"]);
      // A media folder below a plain file cannot be made, whoever runs the test (root included).
      writeFileSync(join(work, "a-file"), "");
      const blocked = await armature(["health_check"], { env: env({ MEDIA_ROOT: join(work, "a-file", "media") }) });
      expect(blocked.code).to.equal(1);
      expect(blocked.out).to.match(/^media: not writable \(ENOTDIR/m).and.include("unhealthy: media");
      await withDb((db) => db("armature_queue_workers").where("id", "test-worker").delete());
    });

    it("upgrade: removes a stale content type and an expired browser session; keeps the rest", async () => {
      const stale = await withDb(async (db) => {
        await db("extras_contenttype").insert({ id: 99999, app_label: "gone", model: "oldmodel", app_labeled_name: "gone | old model" });
        const user = await db("users_user").where("username", TEMPLATE_ADMIN.username).first();
        await db("users_token").insert([
          { id: "00000000-0000-4000-8000-000000000001", key: "1".repeat(40), user_id: user.id, write_enabled: false, description: "browser session", expires: new Date(Date.now() - 3_600_000), created: new Date() },
          { id: "00000000-0000-4000-8000-000000000002", key: "2".repeat(40), user_id: user.id, write_enabled: false, description: "browser session", expires: new Date(Date.now() + 3_600_000), created: new Date() },
        ]);
        // As Nautobot's remove_stale_scheduled_jobs: a schedule of one run due long ago goes; one due
        // lately, and a recurring one however old, stay.
        const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
        await db("extras_scheduledjob").insert([
          { name: "stale one-off", task: "t", interval: "future", one_off: true, start_time: daysAgo(40) },
          { name: "recent one-off", task: "t", interval: "future", one_off: true, start_time: daysAgo(10) },
          { name: "old daily", task: "t", interval: "daily", start_time: daysAgo(180) },
        ]);
        return 99999;
      });
      const ran = await armature(["upgrade"]);
      expect(ran.code, ran.out + ran.err).to.equal(0);
      expect(ran.out).to.include("stale content types removed: gone.oldmodel").and.include("expired sessions removed: 1")
        .and.include("stale schedules removed (one run, due over 30 days ago): 1");
      await withDb(async (db) => {
        expect(await db("extras_scheduledjob").whereIn("name", ["stale one-off", "recent one-off", "old daily"]).orderBy("name").pluck("name")).to.deep.equal(["old daily", "recent one-off"]);
        expect(await db("extras_contenttype").where("id", stale).first()).to.equal(undefined);
        expect(await db("extras_contenttype").count("* as n").first()).to.have.property("n").that.is.not.equal("0");
        expect((await db("users_token").whereIn("key", ["1".repeat(40), "2".repeat(40)]).pluck("key"))).to.deep.equal(["2".repeat(40)]);
      });
      const again = await armature(["upgrade"]);
      expect(again.out).to.include("stale content types removed: none").and.include("expired sessions removed: 0").and.include("stale schedules removed (one run, due over 30 days ago): 0");
    });

    it("shell: statements piped in run with the engine in scope; a write through run() is a change-logged system operation", async () => {
      const input = [
        "Object.keys(engines).sort().join(',')",
        "const ns = engines.inventory",
        // One statement: the REPL reads piped lines as they come, not after the last one's await.
        "(await db('tenancy_tenant').where('id', await run('inventory', (op) => ns.store.create(op, ns.index.model('tenancy.tenant'), { name: 'Shell Tenant', slug: 'shell-tenant' }, { version: '1.5', partial: false }))).first()).name",
        "",
      ].join("\n");
      const ran = await armature(["shell"], { input });
      expect(ran.code, ran.out + ran.err).to.equal(0);
      expect(ran.out, ran.out).to.include("'calendar,inventory'").and.include("'Shell Tenant'");
      await withDb(async (db) => {
        const tenant = await db("tenancy_tenant").where("slug", "shell-tenant").first();
        const change = await db("extras_objectchange").where("changed_object_id", tenant.id).first();
        expect(change).to.deep.include({ action: "create", change_context_detail: "shell" });
      });
    });
  });
});
