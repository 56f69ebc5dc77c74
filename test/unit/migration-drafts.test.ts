// `make generate` while iterating on a spec: the migration written since the last commit is
// replaced by the next generation rather than followed by another, and committed ones stay.
// Runs the generator as the CLI does (generate, then write) in a throwaway git repository.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/index.js";
import { writeGenerated } from "../../generator/write/index.js";

const dsl = fileURLToPath(new URL("../../generator/dsl/index.js", import.meta.url));

describe("unit: make generate replaces the migration not yet committed", function () {
  this.timeout(120_000);
  let root: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const migrations = () => readdirSync(join(root, "generated/shop/migrations")).sort();
  const migration = (name: string) => readFileSync(join(root, "generated/shop/migrations", name), "utf8");
  /** The spec's one model with these fields besides `name`, and a generation as `make generate` runs it. */
  let version = 0;
  const generateWith = async (fields: string) => {
    // A new file each time: the loader imports specs as modules, which Node keeps by path.
    rmSync(join(root, `spec/shop/store/site${version}.ts`), { force: true });
    writeFileSync(join(root, `spec/shop/store/site${++version}.ts`), `import { field, model } from ${JSON.stringify(dsl)};
export default model("Site", {
  app: "store", route: "sites", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }), ${fields} },
});
`);
    const result = await generate(root, { replaceDrafts: true });
    if (!result.ok) throw new Error(result.errors.join("\n"));
    writeGenerated(join(root, "generated"), result.files);
    return result.drafts;
  };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), "armature-drafts-"));
    mkdirSync(join(root, "spec/shop/store"), { recursive: true });
    writeFileSync(join(root, "spec/shop/api.ts"), `import { api } from ${JSON.stringify(dsl)};
export default api({ name: "shop", title: "Shop", profile: "drf", basePath: "/api/", apps: ["store"] });
`);
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "Test");
    expect(await generateWith("")).to.deep.equal([]);
    git("add", "-A");
    git("commit", "-q", "-m", "initial");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("a second generation folds its change into the uncommitted migration, and says so", async () => {
    expect(await generateWith(`color: field.string({ maxLength: 20 }),`)).to.deep.equal([]);
    expect(migrations()).to.deep.equal(["0001_initial.sql", "0002_add_store_site_color.sql"]);

    const said = await generateWith(`color: field.string({ maxLength: 20 }), floor: field.integer({ nullable: true }),`);
    expect(migrations()).to.deep.equal(["0001_initial.sql", "0002_add_store_site_color_add_store_site_floor.sql"]);
    const sql = migration("0002_add_store_site_color_add_store_site_floor.sql");
    expect(sql).to.contain(`ADD COLUMN "color"`).and.to.contain(`ADD COLUMN "floor"`);
    expect(said).to.deep.equal([
      "replaced generated/shop/migrations/0002_add_store_site_color.sql, not yet committed, with " +
      "generated/shop/migrations/0002_add_store_site_color_add_store_site_floor.sql; a database that applied it must be made anew (make clean, for the embedded one)",
    ]);
    // The snapshot is the spec's, as a generation from the commit makes it.
    expect(JSON.parse(readFileSync(join(root, "generated/shop/schema.json"), "utf8")).tables.store_site.columns).to.have.keys("id", "name", "color", "floor");
  });

  it("a generation that finds the spec as committed removes the uncommitted migration; one unchanged is kept", async () => {
    await generateWith(`color: field.string({ maxLength: 20 }),`);
    expect(await generateWith(`color: field.string({ maxLength: 20 }),`)).to.deep.equal([
      "kept generated/shop/migrations/0002_add_store_site_color.sql, not yet committed: the spec still makes it",
    ]);
    const said = await generateWith("");
    expect(migrations()).to.deep.equal(["0001_initial.sql"]);
    expect(said[0]).to.match(/^removed generated\/shop\/migrations\/0002_add_store_site_color\.sql, not yet committed: the spec is back to the committed schema/);
    expect(git("status", "--porcelain", "--", "generated/shop/migrations", "generated/shop/schema.json")).to.equal("");
  });

  it("a committed migration is never replaced: the next change is a migration of its own", async () => {
    await generateWith(`color: field.string({ maxLength: 20 }),`);
    git("add", "-A");
    git("commit", "-q", "-m", "color");
    expect(await generateWith(`color: field.string({ maxLength: 20 }), floor: field.integer({ nullable: true }),`)).to.deep.equal([]);
    expect(migrations()).to.deep.equal(["0001_initial.sql", "0002_add_store_site_color.sql", "0003_add_store_site_floor.sql"]);
  });
});
