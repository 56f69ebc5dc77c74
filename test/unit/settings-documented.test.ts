// Every setting the code reads is documented for operators: each environment variable read in
// runtime/, bin/ or generator/ is named (in backquotes) in a page of docs/operating/, and each
// API-level setting the runtime reads or a spec sets is named in docs/operating/settings.md. A
// new setting without its documentation fails here.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

const code = ["runtime", "bin", "generator"].flatMap(tsFiles).map((f) => readFileSync(f, "utf8")).join("\n");
const names = (re: RegExp, text: string): string[] => [...new Set([...text.matchAll(re)].map((m) => m[1]!))].sort();
const operating = readdirSync("docs/operating").filter((f) => f.endsWith(".md")).map((f) => readFileSync(join("docs/operating", f), "utf8")).join("\n");
const settingsPage = readFileSync("docs/operating/settings.md", "utf8");

describe("settings are documented", () => {
  it("every environment variable the server reads is in docs/operating/", () => {
    // `env.NAME`, `env["NAME"]` and helpers called as `wholeNumber(env, "NAME", …)`.
    const read = names(/\benv(?:\.|\[\s*"|,\s*")([A-Z][A-Z0-9_]+)/g, code);
    expect(read).to.include.members(["DATABASE_URL", "QUEUE_LEASE", "LOG_LEVEL"]);
    expect(read.filter((n) => !operating.includes(`\`${n}\``))).to.deep.equal([]);
  });

  it("every API-level setting is in docs/operating/settings.md", () => {
    const specs = readdirSync("spec", { withFileTypes: true }).filter((e) => e.isDirectory())
      .map((e) => readFileSync(join("spec", e.name, "api.ts"), "utf8"));
    const inSpecs = specs.flatMap((s) => {
      const block = /\bsettings:\s*\{([\s\S]*?)\n {2}\},/.exec(s)?.[1] ?? "";
      return names(/^\s{4}([A-Za-z][A-Za-z0-9_]*):/gm, block);
    });
    const inRuntime = names(/\bsettings\??\.([A-Z][A-Z0-9_]+)/g, code);
    const all = [...new Set([...inSpecs, ...inRuntime])].sort();
    expect(all).to.include.members(["PAGINATE_COUNT", "CHANGELOG_RETENTION", "PER_PAGE", "timezone"]);
    expect(all.filter((n) => !settingsPage.includes(`\`${n}\``))).to.deep.equal([]);
  });
});
