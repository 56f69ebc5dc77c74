// Determinism and drift: the real spec generates byte-identical output twice (here, and in
// `check`'s own process), that output is what generated/ holds (CI's drift check relies on
// both), and `check` exits 0 on a clean tree and 1 with a diff once the spec changes (tried on
// a temporary copy of the project).
import { expect } from "chai";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { generate } from "../../generator/index.js";
import { writeGenerated } from "../../generator/write/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path).split("\\").join("/")] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return out;
}

async function generateInto(dir: string): Promise<Record<string, string>> {
  const result = await generate(root);
  if (!result.ok) throw new Error(result.errors.join("\n"));
  writeGenerated(dir, result.files);
  return readTree(dir);
}

function check(cwd: string) {
  return spawnSync(join(root, "node_modules/.bin/tsx"), [join(cwd, "bin/armature.ts"), "check"], { cwd, encoding: "utf8" });
}

describe("golden: determinism and drift", function () {
  this.timeout(180_000);
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temps.push(dir);
    return dir;
  };
  after(() => { for (const d of temps) rmSync(d, { recursive: true, force: true }); });

  let first: Record<string, string> | undefined;

  /** A temporary copy of the project that `check` runs in (made once: the clean run, then the drifted one). */
  let project: string | undefined;
  const copy = (): string => {
    if (project) return project;
    project = temp("armature-check-");
    for (const dir of ["bin", "generator", "runtime", "spec", "hooks", "apps", "generated"]) cpSync(join(root, dir), join(project, dir), { recursive: true });
    cpSync(join(root, "package.json"), join(project, "package.json"));
    symlinkSync(join(root, "node_modules"), join(project, "node_modules"));
    return project;
  };

  // The second generation is `check`'s, in a process and a directory of its own: it compares
  // what it generates with generated/ byte for byte, so its exit 0 proves the same as a second
  // run here would, and more (no state of this process, no path of this checkout, leaks in).
  it("generates byte-identical output twice (here, and in `check` on a copy: exit 0), equal to the committed generated/", async () => {
    first = await generateInto(temp("armature-det-a-"));
    expect(Object.keys(first).length).to.be.greaterThan(0);
    expect(readTree(join(root, "generated"))).to.deep.equal(first);
    const clean = check(copy());
    expect(clean.status, clean.stderr + clean.stdout).to.equal(0);
    expect(clean.stdout).to.match(/generated\/ matches spec\//);
  });

  it("emits no timestamps, absolute paths or carriage returns", async () => {
    const files = first ?? await generateInto(temp("armature-det-c-"));
    for (const [path, contents] of Object.entries(files)) {
      expect(contents, path).to.not.include(root);
      expect(contents, path).to.not.include("\r");
      expect(contents, path).to.not.match(/20\d\d-\d\d-\d\dT\d\d:\d\d/);
    }
  });

  it("check: exit 1 with a diff after a spec change", () => {
    const site = join(copy(), "spec/inventory/dcim/site.ts");
    writeFileSync(site, readFileSync(site, "utf8").replace(/description: "([^"]*)"/, 'description: "$1 (changed)"'));
    const drifted = check(copy());
    expect(drifted.status).to.equal(1);
    expect(drifted.stdout).to.include("(changed)");
    expect(drifted.stderr).to.match(/generated\/ is out of date: \d+ changed/);
  });
});
