// An app's migrations are a stream of their own, applied after the API's; the app's first
// migration takes over, by its `-- Replaces:` header, the API migration that made its tables
// before. Checked on the real inventory build: a database migrated while the BGP app's tables
// came from `inventory/0040_…` upgrades with nothing run, and a new one gets them from the app.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { migrationSets } from "../../runtime/db/runtime-migrations.js";
import { isApplied, migrate, pendingMigrations, replacedBy, type MigrationSet } from "../../runtime/db/migrate.js";
import { readHeader } from "../../runtime/dump/load.js";
import { FORMAT, VERSION } from "../../runtime/dump/format.js";
import { freshEmbeddedDatabase, migratedEmbeddedDatabase } from "../support/fresh-db.js";
import type { Database } from "../../runtime/db/connect.js";

const OLD = "inventory/0040_create_nautobot_bgp_models_addressfamily_and_more.sql";
const APP = { api: "inventory/bgp", name: "0001_initial.sql" };

describe("migration streams: an app's after its API's, and replaced migrations", function () {
  this.timeout(120_000);
  const sets = migrationSets(apis);
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("orders each app's stream right after its API's own", () => {
    expect(sets.map((s) => s.api)).to.deep.equal(["armature", "calendar", "inventory", "inventory/bgp"]);
    const app = sets.find((s) => s.api === APP.api)!;
    expect(app.migrations.map((m) => m.name)).to.deep.equal([APP.name]);
    expect(replacedBy(app.migrations[0].sql)).to.deep.equal([OLD]);
    // The API's own stream no longer holds the migration the app's replaces.
    expect(sets.find((s) => s.api === "inventory")!.migrations.map((m) => `inventory/${m.name}`)).not.to.include(OLD);
  });

  it("records, without running, an app's first migration on a database that applied what it replaces", async () => {
    db = await migratedEmbeddedDatabase();
    const k = db.knex;
    // The state of a database migrated before the app had a stream of its own.
    await k("armature_migrations").where({ api: APP.api }).delete();
    await k("armature_migrations").insert({ api: "inventory", name: OLD.slice("inventory/".length) });
    expect(await pendingMigrations(k, sets)).to.deep.equal([]);
    // Running its SQL again would fail: its tables exist.
    expect(await migrate(k, sets)).to.deep.equal([]);
    expect(await k("armature_migrations").where(APP).count({ n: "*" })).to.deep.equal([{ n: "1" }]);
    const tables = await k.raw("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'nautobot_bgp_models_%'");
    expect(tables.rows[0].n).to.equal(8);
  });

  it("runs a replacing migration where what it replaces never ran, after the API's own", async () => {
    db = await freshEmbeddedDatabase();
    const stream = (api: string, migrations: MigrationSet["migrations"]) => ({ api, migrations });
    const applied = await migrate(db.knex, [
      stream("shop", [{ name: "0001_initial.sql", sql: "CREATE TABLE shop_product (id int PRIMARY KEY);" }]),
      stream("shop/lab", [{
        name: "0001_initial.sql",
        sql: "-- Migration 0001_initial.sql.\n-- Replaces: shop/0002_create_lab_bench.sql\n\nCREATE TABLE lab_bench (id int PRIMARY KEY REFERENCES shop_product (id));",
      }]),
    ]);
    expect(applied).to.deep.equal(["shop/0001_initial.sql", "shop/lab/0001_initial.sql"]);
    const made = await db.knex.raw("SELECT to_regclass('lab_bench') IS NOT NULL AS yes");
    expect(made.rows[0].yes).to.equal(true);
  });

  it("needs every replaced migration applied, and reads the header only", () => {
    const m = { name: "0001_initial.sql", sql: "-- Replaces: a/0002_x.sql\n-- Replaces: a/0003_y.sql\n\n-- Replaces: a/0009_z.sql\nSELECT 1;" };
    expect(replacedBy(m.sql)).to.deep.equal(["a/0002_x.sql", "a/0003_y.sql"]);
    expect(isApplied(new Set(["a/0002_x.sql"]), "a/b", m)).to.equal(false);
    expect(isApplied(new Set(["a/0002_x.sql", "a/0003_y.sql"]), "a/b", m)).to.equal(true);
    expect(isApplied(new Set(["a/b/0001_initial.sql"]), "a/b", m)).to.equal(true);
    expect(isApplied(new Set(), "a/b", { name: "0001_initial.sql", sql: "SELECT 1;" })).to.equal(false);
  });

  it("loads a dump taken before the move: its migrations are known to this build", () => {
    const migrations = sets.flatMap((s) => s.migrations.filter((m) => !replacedBy(m.sql).length).map((m) => `${s.api}/${m.name}`));
    const header = JSON.stringify({ format: FORMAT, version: VERSION, taken: new Date().toISOString(), migrations: [...migrations, OLD] });
    expect(readHeader(header, sets).migrations).to.include(OLD);
    expect(() => readHeader(JSON.stringify({ ...JSON.parse(header), migrations: ["inventory/0099_later.sql"] }), sets)).to.throw(/newer build/);
  });
});
