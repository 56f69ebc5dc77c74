// The golden `migration-safe` case's migration, applied to a database holding rows: the
// renamed column keeps its values, the backfills fill what existing rows lacked, and only
// what the spec discarded is gone.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freshEmbeddedDatabase } from "../support/fresh-db.js";

const caseDir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/migration-safe");
const read = (path: string) => readFileSync(join(caseDir, path), "utf8");

describe("unit: migrations that keep data", () => {
  it("renames, widens, backfills and drops only what was discarded, on a table with rows", async () => {
    const db = await freshEmbeddedDatabase();
    try {
      await db.knex.raw(read("previous/shop/migrations/0001_initial.sql"));
      await db.knex("store_product").insert([{ name: "Anvil", price: 5, weight: null, code: "A1" }, { name: "Bell", price: 7, weight: 2.5 }]);
      await db.knex("store_old").insert({ label: "gone" });
      await db.knex.raw(read("expected/shop/migrations/0002_rename_store_product_name_add_store_product_label_and_more.sql"));
      const rows = await db.knex("store_product").select("title", "price", "weight", "stock", "label").orderBy("title");
      expect(rows).to.deep.equal([
        { title: "Anvil", price: 5, weight: 0, stock: 0, label: "unlabelled" },
        { title: "Bell", price: 7, weight: 2.5, stock: 0, label: "unlabelled" },
      ]);
      const columns = (await db.knex.raw("SELECT column_name FROM information_schema.columns WHERE table_name = 'store_product' ORDER BY 1")).rows.map((r: { column_name: string }) => r.column_name);
      expect(columns).to.deep.equal(["id", "label", "price", "stock", "title", "weight"]);
      expect((await db.knex.raw("SELECT to_regclass('store_old') AS t")).rows[0].t).to.equal(null);
    } finally {
      await db.close();
    }
  });
});

describe("unit: hand-written SQL from the spec", () => {
  it("the migration-sql case's migration creates the extra index, the trigger and the view", async () => {
    const dir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/migration-sql");
    const db = await freshEmbeddedDatabase();
    try {
      await db.knex.raw(readFileSync(join(dir, "previous/shop/migrations/0001_initial.sql"), "utf8"));
      const [next] = readdirSync(join(dir, "expected/shop/migrations")).filter((n) => n.startsWith("0002_"));
      await db.knex.raw(readFileSync(join(dir, "expected/shop/migrations", next), "utf8"));
      await db.knex("store_product").insert([{ name: "Anvil", price: -3 }, { name: "Bell", price: 20 }]);
      expect(await db.knex("store_product").select("name", "price").orderBy("name")).to.deep.equal([{ name: "Anvil", price: 0 }, { name: "Bell", price: 20 }]);
      expect(await db.knex("store_cheap_product").select("name")).to.deep.equal([{ name: "Anvil" }]);
      const indexes = (await db.knex.raw("SELECT indexname FROM pg_indexes WHERE tablename = 'store_product'")).rows.map((r: { indexname: string }) => r.indexname);
      expect(indexes).to.include("store_product_price_name_btree_idx");
    } finally {
      await db.close();
    }
  });
});

describe("unit: the content-type registry's rows", () => {
  it("keep their ids when models come and go, new models get ids never given before, and existing labels get every tagged model", async () => {
    const dir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/content-types");
    const db = await freshEmbeddedDatabase();
    try {
      await db.knex.raw(readFileSync(join(dir, "previous/ct/migrations/0001_initial.sql"), "utf8"));
      const before = await db.knex("core_kind").select("id", "model").orderBy("id");
      expect(before).to.deep.equal([{ id: 1, model: "group" }, { id: 2, model: "item" }, { id: 3, model: "label" }, { id: 4, model: "old" }]);
      const [{ id: label }] = await db.knex("core_label").insert({ name: "Red", slug: "red" }).returning("id");
      const [next] = readdirSync(join(dir, "expected/ct/migrations")).filter((n) => n.startsWith("0002_"));
      await db.knex.raw(readFileSync(join(dir, "expected/ct/migrations", next), "utf8"));
      expect(await db.knex("core_kind").select("id", "model").orderBy("id"))
        .to.deep.equal([{ id: 1, model: "group" }, { id: 2, model: "item" }, { id: 3, model: "label" }, { id: 5, model: "box" }, { id: 6, model: "pin" }]);
      const scoped = await db.knex("core_label_content_types as j").join("core_kind as k", "k.id", "j.kind_id").where("j.source_id", label).pluck("k.model");
      expect(scoped.sort()).to.deep.equal(["box", "item"]);
      expect(await db.knex("core_label_watched").pluck("kind_id")).to.deep.equal([]);
      const snapshot = JSON.parse(readFileSync(join(dir, "expected/ct/schema.json"), "utf8"));
      expect(snapshot.tables.core_kind.rows.nextId).to.equal(7);
    } finally {
      await db.close();
    }
  });
});

describe("unit: statuses as rows", () => {
  const dir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/statuses");
  const sql = (path: string) => readFileSync(join(dir, path), "utf8");
  const next = readdirSync(join(dir, "expected/st/migrations")).find((n) => n.startsWith("0002_"))!;

  it("a choice column with rows becomes a key to the status rows the migration inserts first, linked to the model", async () => {
    const db = await freshEmbeddedDatabase();
    try {
      await db.knex.raw(sql("previous/st/migrations/0001_initial.sql"));
      await db.knex("core_box").insert([{ name: "a", status: "active" }, { name: "b", status: "planned" }]);
      // A status a user already made under a default's slug is kept as it is.
      await db.knex.raw(sql(`expected/st/migrations/${next}`));
      const states = (await db.knex.raw(
        `SELECT s.slug, s.name, coalesce(string_agg(k.app_label || '.' || k.model, ',' ORDER BY k.model), '') AS types FROM core_state s
         LEFT JOIN core_state_content_types j ON j.source_id = s.id LEFT JOIN core_kind k ON k.id = j.kind_id GROUP BY s.slug, s.name ORDER BY s.slug`,
      )).rows;
      expect(states).to.deep.equal([
        { slug: "active", name: "Active", types: "core.box" },
        { slug: "broken", name: "Broken's", types: "" },
        { slug: "planned", name: "Planned", types: "core.box" },
      ]);
      expect((await db.knex("core_box").orderBy("name").pluck("status"))).to.deep.equal(["active", "planned"]);
      // The key follows a renamed slug and refuses to delete a status in use.
      await db.knex("core_state").where("slug", "planned").update({ slug: "in-planning" });
      expect((await db.knex("core_box").where("name", "b").first("status")).status).to.equal("in-planning");
      const refused = await db.knex("core_state").where("slug", "active").del().then(() => null, (e: { code?: string }) => e.code);
      expect(refused).to.equal("23001");
      await db.knex("core_state").where("slug", "broken").del();
      expect(await db.knex("core_state").orderBy("slug").pluck("slug")).to.deep.equal(["active", "in-planning"]);
    } finally {
      await db.close();
    }
  });

  it("leaves statuses users made or changed before it alone (ON CONFLICT DO NOTHING)", async () => {
    const db = await freshEmbeddedDatabase();
    try {
      await db.knex.raw(sql("previous/st/migrations/0001_initial.sql"));
      await db.knex.raw(sql(`expected/st/migrations/${next}`));
      await db.knex("core_state").where("slug", "active").update({ name: "Live" });
      // Running the seed statements again (as a later migration adding rows would) changes nothing.
      const seeds = sql(`expected/st/migrations/${next}`).split("\n\n").filter((s) => s.startsWith("INSERT INTO \"core_state"));
      for (const s of seeds) await db.knex.raw(s);
      expect(await db.knex("core_state").orderBy("slug").pluck("name")).to.deep.equal(["Live", "Broken's", "Planned"]);
      expect(Number((await db.knex("core_state_content_types").count({ n: "*" }).first())!.n)).to.equal(2);
    } finally {
      await db.close();
    }
  });
});
