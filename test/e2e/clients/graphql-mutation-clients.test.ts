// GraphQL mutations sent by the real Python clients against the test server: pynautobot's
// `nb.graphql.query()` (test/clients/graphql-mutations/pynautobot_mutations.py) and the
// networktocode.nautobot collection's `query_graphql` module in a playbook
// (query_graphql_mutation.yml). Skipped where the clients are not installed: pynautobot's
// source (PYNAUTOBOT_SRC, /work/clients/pynautobot at v1.5.5), the collection's
// (NAUTOBOT_ANSIBLE_SRC, /work/clients/nautobot-ansible at v4.5.1), ansible-playbook and a
// Python with requests and packaging (PYTHON, /usr/bin/python3).
import { expect } from "chai";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { get } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "../inventory/support.js";

const run = promisify(execFile);
const scripts = fileURLToPath(new URL("../../clients/graphql-mutations/", import.meta.url));
const PYNAUTOBOT = process.env.PYNAUTOBOT_SRC ?? "/work/clients/pynautobot";
const COLLECTION = process.env.NAUTOBOT_ANSIBLE_SRC ?? "/work/clients/nautobot-ansible";
const PYTHON = process.env.PYTHON ?? "/usr/bin/python3";

async function has(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

describe("clients: GraphQL mutations through pynautobot and the Ansible collection", () => {
  const work = mkdtempSync(join(tmpdir(), "gql-mutation-clients-"));
  after(() => rmSync(work, { recursive: true, force: true }));

  it("pynautobot's graphql.query() creates, changes and deletes, and raises on a refused document", async function () {
    if (!existsSync(join(PYNAUTOBOT, "pynautobot")) || !(await has(PYTHON, ["-c", "import requests, packaging"]))) this.skip();
    const { url, token } = await startTestServer();
    const prefix = uniq("gqlpy").toLowerCase();
    const out = await run(PYTHON, [join(scripts, "pynautobot_mutations.py")], {
      env: { ...process.env, NAUTOBOT_URL: url, NAUTOBOT_TOKEN: token, PREFIX: prefix, PYTHONPATH: PYNAUTOBOT, PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 180_000,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`pynautobot script failed:\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
    });
    expect(out.stdout).to.not.include("FAILED");
    expect(out.stdout.match(/: ok$/gm)).to.have.length(7);
    // What the script left: the one site it kept, none of those it deleted or was refused.
    const kept = await get(`/api/dcim/sites/?name=${prefix}-one`);
    expect(kept.body.results.map((s: { description: string }) => s.description)).to.deep.equal(["from pynautobot"]);
    expect(await rows("dcim_site", { name: `${prefix}-b1` })).to.equal(0);
    expect(await rows("dcim_site", { name: `${prefix}-x` })).to.equal(0);
  });

  it("the collection's query_graphql module sends a mutation, and fails its task on a refused one", async function () {
    if (!existsSync(join(COLLECTION, "plugins/modules/query_graphql.py")) || !existsSync(join(PYNAUTOBOT, "pynautobot"))
      || !(await has("ansible-playbook", ["--version"]))) this.skip();
    const { url, token } = await startTestServer();
    const prefix = uniq("gqlans").toLowerCase();
    // The collection as `ansible-galaxy collection install` lays it out, ahead of any bundled copy.
    const coll = join(work, "collections/ansible_collections/networktocode/nautobot");
    mkdirSync(coll, { recursive: true });
    cpSync(COLLECTION, coll, { recursive: true, filter: (src) => !/\/(\.git|tests)(\/|$)/.test(src.slice(COLLECTION.length)) });
    const env = {
      ...process.env, ANSIBLE_COLLECTIONS_PATH: join(work, "collections"), ANSIBLE_NOCOLOR: "1", ANSIBLE_LOCALHOST_WARNING: "0",
      PYTHONPATH: PYNAUTOBOT, PYTHONDONTWRITEBYTECODE: "1", ANSIBLE_PYTHON_INTERPRETER: PYTHON,
    };
    const vars = JSON.stringify({ url, token, prefix, out: work });
    await run("ansible-playbook", ["-i", "localhost,", "-e", vars, join(scripts, "query_graphql_mutation.yml")], { env, cwd: work, timeout: 240_000 })
      .catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`playbook failed:\n${(err.stdout ?? "").slice(-3000)}\n${err.stderr ?? ""}`);
      });
    const created = JSON.parse(readFileSync(join(work, "created.json"), "utf8"));
    expect(created).to.deep.equal({
      create_tag: { slug: `${prefix}-tag` },
      create_site: { name: `${prefix}-ansible`, tags: [{ slug: `${prefix}-tag` }] },
    });
    expect((await get(`/api/dcim/sites/?name=${prefix}-ansible`)).body.count).to.equal(1);
    const refused = JSON.parse(readFileSync(join(work, "refused.json"), "utf8"));
    expect(refused.failed).to.equal(true);
    expect(await rows("dcim_site", { name: `${prefix}-refused` })).to.equal(0);
  });
});
