// Golden tests, sqlc-style: each folder under cases/ holds a tiny spec and either the exact
// files the generator must emit (`expected/`) or the exact diagnostics it must report
// (`expected-errors.txt`). A case with `previous/` starts from that migration state.
// `UPDATE_GOLDEN=1` rewrites the expectations from the current generator; review the diff.
import { expect } from "chai";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/index.js";
import { LoadError } from "../../generator/load/index.js";
import { byCodePoint } from "../../generator/ir/names.js";
import { replacedBy } from "../../runtime/db/migrate.js";

const casesDir = join(dirname(fileURLToPath(import.meta.url)), "cases");
const update = process.env.UPDATE_GOLDEN === "1";

/** Every file under `dir` as `/`-separated relative path → contents. */
function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort(byCodePoint)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8"));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** Runs the pipeline on one case; load failures count as diagnostics, like validation errors. */
async function run(caseDir: string): Promise<{ files?: Map<string, string>; errors?: string }> {
  const previous = join(caseDir, "previous");
  // No previous/ means a first generation: point at an empty folder, never at the project's generated/.
  const empty = mkdtempSync(join(tmpdir(), "armature-golden-"));
  try {
    const result = await generate(caseDir, { specDir: "spec", previousDir: existsSync(previous) ? previous : empty });
    if (!result.ok) return { errors: result.errors.join("\n") + "\n" };
    return { files: new Map(result.files.map((f) => [f.path, f.contents])) };
  } catch (err) {
    if (err instanceof LoadError) return { errors: err.message + "\n" };
    throw err;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

function writeExpectations(caseDir: string, got: { files?: Map<string, string>; errors?: string }): void {
  rmSync(join(caseDir, "expected"), { recursive: true, force: true });
  rmSync(join(caseDir, "expected-errors.txt"), { force: true });
  if (got.errors !== undefined) {
    writeFileSync(join(caseDir, "expected-errors.txt"), got.errors);
    return;
  }
  for (const [path, contents] of got.files!) {
    const target = join(caseDir, "expected", path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
}

const cases = readdirSync(casesDir).filter((c) => statSync(join(casesDir, c)).isDirectory()).sort(byCodePoint);

describe("golden: generator output and diagnostics", function () {
  this.timeout(120_000);
  const outputs = new Map<string, { files?: Map<string, string>; errors?: string }>();

  for (const name of cases) {
    const caseDir = join(casesDir, name);
    it(name, async () => {
      const got = await run(caseDir);
      outputs.set(name, got);
      if (update) writeExpectations(caseDir, got);
      const errorsFile = join(caseDir, "expected-errors.txt");
      if (existsSync(errorsFile)) {
        expect(got.errors, "the spec was expected to be rejected").to.be.a("string");
        expect(got.errors).to.equal(readFileSync(errorsFile, "utf8"));
        return;
      }
      expect(existsSync(join(caseDir, "expected")), `${name} has no expected/ nor expected-errors.txt`).to.equal(true);
      expect(got.errors, "the spec was expected to generate").to.equal(undefined);
      const expected = readTree(join(caseDir, "expected"));
      // Same file list first, so a missing or extra file is reported by name.
      expect([...got.files!.keys()]).to.deep.equal([...expected.keys()]);
      for (const [path, contents] of expected) expect(got.files!.get(path), path).to.equal(contents);
    });
  }

  it("every diagnostic names the spec file it comes from (an app's own: apps/<name>/)", () => {
    for (const name of cases) {
      const errors = outputs.get(name)?.errors;
      if (!errors) continue;
      for (const line of errors.trimEnd().split("\n")) {
        expect(line, `${name}: ${line}`).to.match(/^(spec\/[a-z0-9-]+|apps\/[a-z0-9-]+(\/spec)?)\/[\w./-]+\.ts: /);
        // A model file's diagnostics name the model, unless the file holds no model at all.
        if (!/\/(api|app)\.ts: /.test(line) && !/: (default export must be|has no default export|cannot be loaded)/.test(line)) {
          expect(line, `${name}: ${line}`).to.match(/\.ts: model [A-Za-z0-9_]+(, field [A-Za-z0-9_]+)?: /);
        }
      }
    }
  });

  it("passes earlier migrations through byte for byte", () => {
    for (const name of cases) {
      const files = outputs.get(name)?.files;
      const previous = readTree(join(casesDir, name, "previous"));
      if (!files || previous.size === 0) continue;
      // A migration an app's first migration replaces is retired: it alone may be gone.
      const replaced = new Set([...files.values()].flatMap((sql) => replacedBy(sql)));
      for (const [path, sql] of previous) {
        if (!path.includes("/migrations/")) continue;
        if (replaced.has(path.replace("/migrations/", "/"))) expect(files.has(path), `${name}: ${path}`).to.equal(false);
        else expect(files.get(path), `${name}: ${path}`).to.equal(sql);
      }
    }
  });

  it("moves an app's tables out of the API's stream into the app's own, keeping their rows' ids", () => {
    const files = outputs.get("app-migrations")!.files!;
    expect([...files.keys()].filter((p) => p.includes("/migrations/"))).to.deep.equal([
      "st/apps/lab/migrations/0001_initial.sql",
      "st/migrations/0001_initial.sql",
      // Numbered after the retired 0002, which databases migrated before the move have applied.
      "st/migrations/0003_create_core_shelf_rows_core_kind_seed_core_state_content_types.sql",
    ]);
    const app = files.get("st/apps/lab/migrations/0001_initial.sql")!;
    expect(replacedBy(app)).to.deep.equal(["st/0002_create_lab_bench_rows_core_kind_seed_core_state_content_types.sql"]);
    // The statements of the retired migration, and the content type's id it gave.
    const retired = readFileSync(join(casesDir, "app-migrations/previous/st/migrations/0002_create_lab_bench_rows_core_kind_seed_core_state_content_types.sql"), "utf8");
    const body = (sql: string) => sql.slice(sql.indexOf("\n\n"));
    expect(body(app)).to.equal(body(retired));
    expect(files.get("st/migrations/0003_create_core_shelf_rows_core_kind_seed_core_state_content_types.sql")).to.contain("(4, 'core', 'Core | shelf', 'shelf')");
    const snapshot = JSON.parse(files.get("st/schema.json")!);
    expect(snapshot.tables).not.to.have.property("lab_bench");
    expect(Object.keys(snapshot.tables.core_kind.rows.byKey)).not.to.include("lab.bench");
  });

  it("adds exactly one migration when a model and a field are added", () => {
    const files = [...outputs.get("migration-add")!.files!.keys()].filter((p) => p.includes("/migrations/"));
    expect(files).to.deep.equal(["shop/migrations/0001_initial.sql", "shop/migrations/0002_add_store_product_supplier_id_add_store_product_weight_and_more.sql"]);
  });

  it("adds no migration when the schema did not change", () => {
    const files = [...outputs.get("migration-none")!.files!.keys()].filter((p) => p.includes("/migrations/"));
    expect(files).to.deep.equal(["shop/migrations/0001_initial.sql"]);
  });
});
