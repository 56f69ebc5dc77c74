// The architecture's one-way dependencies, checked on the source: the runtime imports
// nothing from generated/, generator/, spec/ or demo/, and names no model of any API
// (model keys, tables or routes), so a third API needs no runtime change.
import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { ts } from "ts-morph";
import { apis } from "../../generated/server.js";
import { ROLE_FIELDS } from "../../generator/validate/index.js";
import { storedColumn } from "../../runtime/descriptor.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const runtime = sources("runtime").map((path) => ({ path, text: readFileSync(path, "utf8") }));

describe("layering", () => {
  it("runtime/ imports nothing from generated/, generator/, spec/, hooks/ or demo/", () => {
    const offending = runtime.filter(({ text }) => /from\s+["'](\.\.\/)+(generated|generator|spec|hooks|demo)\//.test(text) ||
      /import\(\s*["'](\.\.\/)+(generated|generator|spec|hooks|demo)\//.test(text));
    expect(offending.map((f) => f.path)).to.deep.equal([]);
  });

  it("runtime/ names no model, table or route of any API", () => {
    const names = apis.flatMap((a) => a.models.flatMap((m) => [m.key, m.table, `${m.app}/${m.route}`]));
    const hits = runtime.flatMap(({ path, text }) => names.filter((n) => text.includes(`"${n}"`) || text.includes(`'${n}'`) || text.includes(`/${n}/`)).map((n) => `${path}: ${n}`));
    expect(hits).to.deep.equal([]);
  });

  it("runtime/ names no field a spec defines, except the conventions the runtime itself states", () => {
    // Words every field kind or the runtime's own tables use, whatever the spec says.
    // Also `serial` (the api's idType for integer keys), `type` (the JSON Schema keyword ajv reports)
    // and `text` (the scalar type).
    const runtimeWords = ["id", "url", "display", "tags", "name", "key", "date", "email", "color", "password", "address", "family", "serial", "type", "text"];
    // The auth contract the generator checks (auth.users, auth.tokens, appPasswords models).
    const authContract = ["username", "password", "is_active", "is_superuser", "user", "key", "expires", "write_enabled", "name", "last_used", "created"];
    // The custom-field contract the generator checks (api customFields: definitions and choices;
    // also `field`, DRF's OPTIONS type of a plain field).
    const customFieldContract = ["name", "slug", "label", "type", "required", "filter_logic", "default", "weight", "validation_minimum", "validation_maximum", "validation_regex", "field", "value"];
    // The relationship contract (api `relationships`: its two models' fields, and the field it adds).
    // (`peer`: the side of a symmetric relationship, as Nautobot names it.)
    const relationshipContract = ["relationships", "relationship", "source_type", "source_id", "destination_type", "destination_id", "required_on", "peer"];
    // The status contract (the `status` field kind, over a statuses model whose rows the
    // generator checks have a `slug` and a `name`).
    const statusContract = ["status", "slug", "name"];
    // The change-log, webhook and permission contracts (api `changeLog`, `webhooks`,
    // `permissions`: the fields the generator checks their models have, and the users' groups).
    const roleContract = [...Object.values(ROLE_FIELDS).flatMap((fields) => Object.keys(fields)), "groups"];
    // What a job variable says of itself (Nautobot's JobVariableSerializer: an object variable's `model`).
    const jobVariableContract = ["model", "choices", "label", "required", "default"];
    // `last_updated`, which webhook snapshot differences leave out as Nautobot's do.
    const snapshotWords = ["last_updated"];
    // WordPress's own post and term fields (a term's `filter`, which the plugin shows as "raw"),
    // The Events Calendar's archive parameters and its currency positions (`prefix`/`postfix`
    // in cost details).
    const wordpressConventions = ["status", "slug", "author", "date", "modified", "name", "description", "parent", "filter", "start_date", "end_date", "prefix"];
    // Knex's event of every statement it sends (the metrics count them).
    const knexEvents = ["query"];
    const allowed = (path: string) => new Set([
      ...runtimeWords, ...knexEvents, ...authContract, ...customFieldContract, ...relationshipContract, ...statusContract, ...roleContract, ...jobVariableContract, ...snapshotWords, ...(path.startsWith(join("runtime", "profiles", "wordpress")) ? wordpressConventions : []),
      // Nautobot's `/api/status/` endpoint.
      ...(path.startsWith(join("runtime", "profiles", "drf")) ? ["status"] : []),
    ]);
    const fields = new Set(apis.flatMap((a) => a.models.flatMap((m) => m.fields.map((f) => f.name))));
    const hits = runtime.flatMap(({ path, text }) => [...fields].filter((n) => !allowed(path).has(n) && text.includes(`"${n}"`)).map((n) => `${path}: ${n}`));
    expect(hits).to.deep.equal([]);
  });

  it("runtime/ modules import each other without a cycle", () => {
    // Imports that load code: `import type` and all-type braces are erased.
    const loads = (text: string) => [...text.matchAll(/^(?:import|export)\s+(?!type\b)([^;]*?)from\s+["'](\.[^"']+)["']/gm)]
      .filter(([, what]) => !/^\s*\{[^}]*\}\s*$/.test(what) || /\{([^}]*)\}/.exec(what)![1].split(",").some((x) => x.trim() !== "" && !x.trim().startsWith("type ")))
      .map((m) => m[2]);
    const graph = new Map(runtime.map(({ path, text }) => [path, loads(text).map((to) => join(dirname(path), to.replace(/\.js$/, ".ts")))]));
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (n: string) => {
      state.set(n, "open");
      stack.push(n);
      for (const d of graph.get(n) ?? []) {
        if (state.get(d) === "open") cycles.push([...stack.slice(stack.indexOf(d)), d].join(" -> "));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(n, "done");
    };
    for (const n of graph.keys()) if (!state.has(n)) visit(n);
    expect(cycles).to.deep.equal([]);
  });

  it("generated code imports only the runtime, hook modules and its own modules", () => {
    const generated = sources("generated").map((path) => readFileSync(path, "utf8"));
    const imports = generated.flatMap((text) => [...text.matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]));
    expect(imports).to.not.be.empty;
    expect(imports.filter((i) => !/^(\.\/|(\.\.\/)+(runtime|hooks|apps\/[a-z0-9-]+\/hooks)\/)/.test(i))).to.deep.equal([]);
  });

  it("generator/ imports nothing from runtime/ but the descriptor types", () => {
    const generator = sources("generator").map((path) => ({ path, text: readFileSync(path, "utf8") }));
    const imports = generator.flatMap(({ path, text }) => [...text.matchAll(/from\s+["']((?:\.\.\/)+runtime\/[^"']+)["']/g)].map((m) => `${path}: ${m[1]}`));
    expect(imports.filter((i) => !/runtime\/descriptor\.js$/.test(i))).to.deep.equal([]);
  });

  /** Every module a source imports or re-exports from, type-only ones included, as written. */
  const specifiers = (text: string) => [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm), ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);

  it("that reading of imports counts type-only imports, re-exports and type queries", () => {
    const sample = [
      `import type { Engine } from "./engine.js";`, `import { a,\n  type B } from "../x.js";`, `export type { C } from "./c.js";`,
      `export * from "./d.js";`, `type E = import("./e.js").E;`, `const f = "from './not-an-import.js'";`,
    ].join("\n");
    expect(specifiers(sample)).to.deep.equal(["./engine.js", "../x.js", "./c.js", "./d.js", "./e.js"]);
  });

  it("runtime/descriptor.ts, the contract, imports nothing of the runtime, not even a type", () => {
    const text = readFileSync(join("runtime", "descriptor.ts"), "utf8");
    expect(specifiers(text)).to.not.be.empty;
    expect(specifiers(text).filter((s) => s.startsWith("."))).to.deep.equal([]);
  });

  it("no module outside runtime/features/ imports a particular feature: the registry (runtime/features/index.ts) gives what they name", () => {
    const features = join("runtime", "features");
    const layers = [...runtime, ...sources("hooks").map((path) => ({ path, text: readFileSync(path, "utf8") }))]
      .filter(({ path }) => !path.startsWith(features + sep));
    const hits = layers.flatMap(({ path, text }) => specifiers(text).filter((s) => s.startsWith("."))
      .filter((s) => join(dirname(path), s).startsWith(features + sep) && dirname(join(dirname(path), s)) !== features)
      .map((s) => `${path}: ${s}`));
    expect(layers.filter(({ text }) => /features\/index\.js/.test(text))).to.not.be.empty;
    expect(hits).to.deep.equal([]);
  });

  it("only a profile and the profile registry import a profile's modules, and nothing else names a profile", () => {
    const outside = runtime.filter(({ path }) => !path.startsWith(join("runtime", "profiles")) && path !== join("runtime", "descriptor.ts"));
    expect(outside.filter(({ text }) => /from\s+["'][./]*profiles\/(?!index\.js)/.test(text)).map((f) => f.path)).to.deep.equal([]);
    expect(outside.filter(({ text }) => /["'](drf|wordpress)["']/.test(text)).map((f) => f.path)).to.deep.equal([]);
  });

  // The engine raises problems (runtime/problems.ts) and each profile words them: DRF's and
  // Django's texts, and the Python type names they print, live in the DRF profile only.
  const DRF_WORDS = [
    "This field", "valid choice", "does not exist", "Enter a ", "Ensure th", "Expected a ", "may not be", "already exists",
    "Related object", "Invalid pk", "Invalid value", "is not a valid UUID", "permission to perform", "must make a unique set",
  ];
  /** The DRF wording in a module's code (comments aside): telltale texts, and Python type names taken for messages. */
  const drfWording = (text: string) => {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
    return [...DRF_WORDS.filter((w) => code.includes(w)), ...(/\bpyType\b/.test(code) ? ["pyType"] : [])];
  };

  it("runtime/ outside the profiles words no problem in DRF's texts", () => {
    expect(drfWording('throw new FieldProblem(`Expected a list of items but got type "${pyType(value)}".`); // This field')).to.deep.equal(["Expected a ", "pyType"]);
    expect(drfWording("// This field may not be null.\n/* Enter a valid UUID. */ const url = \"https://x\";")).to.deep.equal([]);
    const outside = runtime.filter(({ path }) => !path.startsWith(join("runtime", "profiles") + sep));
    expect(outside.flatMap(({ path, text }) => drfWording(text).map((w) => `${path}: ${w}`))).to.deep.equal([]);
  });

  // A hook module imports the hook authors' module (runtime/hooks.ts, which re-exports the
  // runtime's helpers hooks share), its API's helpers (hooks/<api>/lib/), hook modules of its API
  // whose hooks it shares, its API's generated names, and packages; a helper imports no hook
  // module. Type-only imports count: a hook that names the DRF profile's wording speaks its dialect.
  const hooks = sources("hooks").map((path) => ({ path, text: readFileSync(path, "utf8") }));
  const helper = (path: string) => path.split(sep)[2] === "lib";
  // An app's hook modules (apps/<app>/hooks/), by the API its models join: the same rules, its own folder for hooks/<api>/.
  const appApi = (app: string) => apis.find((a) => a.plugins?.some((p) => p.name === app))!.name;
  const appHooks = readdirSync("apps").filter((app) => statSync(join("apps", app, "hooks"), { throwIfNoEntry: false })?.isDirectory())
    .flatMap((app) => sources(join("apps", app, "hooks")).map((path) => ({ path, text: readFileSync(path, "utf8"), api: appApi(app), own: join("apps", app, "hooks") })));
  // An app's helpers (apps/<app>/hooks/lib/), as the core's: shared by its hook modules, importing none.
  const appHelper = (path: string) => path.split(sep)[3] === "lib";
  const importsOf = (text: string) => [...text.matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]);

  it("hook modules import only runtime/hooks.ts, their API's helpers and names, and hook modules they share hooks with", () => {
    const imports = hooks.flatMap(({ path, text }) => importsOf(text).map((i) => ({ path, i, to: join(dirname(path), i) })));
    expect(imports).to.not.be.empty;
    const allowed = ({ path, i, to }: { path: string; i: string; to: string }) => {
      const api = path.split(sep)[1];
      if (!i.startsWith(".")) return true;
      if (to === join("runtime", "hooks.js")) return true;
      if (to === join("generated", api, "tables.js") || to === join("generated", api, "rows.js")) return true;
      if (!to.startsWith(join("hooks", api) + sep)) return false;
      return helper(path) ? helper(to) : true;
    };
    expect(imports.filter((x) => !allowed(x)).map(({ path, i }) => `${path}: ${i}`)).to.deep.equal([]);
  });

  it("an app's hook modules import only runtime/hooks.ts, its API's generated names and the app's own hook modules and helpers", () => {
    expect(appHooks).to.not.be.empty;
    const imports = appHooks.flatMap(({ path, text, api, own }) => importsOf(text).map((i) => ({ path, i, to: join(dirname(path), i), api, own })));
    const allowed = ({ path, i, to, api, own }: { path: string; i: string; to: string; api: string; own: string }) => !i.startsWith(".") || to === join("runtime", "hooks.js")
      || to === join("generated", api, "tables.js") || to === join("generated", api, "rows.js") || (to.startsWith(own + sep) && (!appHelper(path) || appHelper(to)));
    expect(imports.filter((x) => !allowed(x)).map(({ path, i }) => `${path}: ${i}`)).to.deep.equal([]);
  });

  // What generated/<api>/tables.ts gives hooks, so they never spell it: every model's table,
  // its link fields' join tables and their columns, and every column named otherwise than its
  // field (`site_id` for `site`), but for words that are also some field's name (a cable's
  // `termination_a_id` field is spelled as a field, which it is).
  const fieldNames = new Set(apis.flatMap((a) => a.models.flatMap((m) => m.fields.map((f) => f.name))));
  const generatedNames = new Set(apis.flatMap((a) => a.models.flatMap((m) => [m.table, ...m.fields.flatMap((f) => {
    const column = storedColumn(f);
    const through = "through" in f && f.through && "table" in f.through ? Object.values(f.through as Record<string, string>) : [];
    return [...(column !== undefined && column !== f.name ? [column] : []), ...through];
  })])).filter((n) => !fieldNames.has(n)));

  /**
   * Where a module spells one of `names`: a word of a string or of a template's text (SQL,
   * Knex column names), a property read (`row.site_id`: a row keyed by column), or a key of an
   * object given to a call (`where({ site_id: … })`). Comments are not code and are not read.
   */
  function spelled(path: string, text: string, names: Set<string>): string[] {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const hits: string[] = [];
    const hit = (node: ts.Node, word: string) => {
      if (names.has(word)) hits.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${word}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        for (const word of node.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) hit(node, word);
      } else if (ts.isPropertyAccessExpression(node)) hit(node.name, node.name.text);
      else if (ts.isObjectLiteralExpression(node) && (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent))) {
        for (const p of node.properties) if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) hit(p.name, p.name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    return hits;
  }

  it("hook modules spell no table or column: the generated names give them", () => {
    expect(generatedNames).to.include.keys("dcim_device", "site_id", "custom_field_data", "dcim_interface_tagged_vlans", "vlan_id", "venue_id");
    expect([...hooks, ...appHooks].flatMap(({ path, text }) => spelled(path, text, generatedNames))).to.deep.equal([]);
  });

  it("that check finds a table or column spelled in SQL, in a Knex call or in a row read by column", () => {
    const sample = [
      `const a = await db("dcim_device").where({ site_id: id }).first();`,
      "const b = db.raw(`SELECT d.device_type_id FROM ${t} d`);",
      `if (row.rack_id) throw new Refusal({ termination_a_id: "In its field's name." }); // site_id`,
    ].join("\n");
    expect(spelled("sample.ts", sample, generatedNames)).to.deep.equal([
      "sample.ts:1: dcim_device", "sample.ts:1: site_id", "sample.ts:2: device_type_id", "sample.ts:3: rack_id",
    ]);
  });

  it("every hook module outside lib/ is one a model names", () => {
    const named = new Set(apis.flatMap((a) => a.models.flatMap((m) => (m.hookModule ? [join("hooks", a.name, `${m.hookModule}.ts`)] : []))));
    expect(hooks.map((h) => h.path).filter((p) => !helper(p) && !named.has(p))).to.deep.equal([]);
  });

  it("every hook module of an app outside its lib/ is one of the app's models names", () => {
    const named = new Set(apis.flatMap((a) => a.models.flatMap((m) => (m.hookModule && m.plugin ? [join("apps", m.plugin.name, "hooks", `${m.hookModule}.ts`)] : []))));
    expect(appHooks.map((h) => h.path).filter((p) => !appHelper(p) && !named.has(p))).to.deep.equal([]);
  });
});
