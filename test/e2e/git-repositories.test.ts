// Git repositories through the real server and the queue: a repository the test makes with
// `git init` in a temporary folder, synced by its file:// URL, brings a job that then runs
// (on this worker, and on one with an empty Git root, as a worker of another machine), config
// contexts and their schemas that a later sync refreshes and removes; a sync that fails (a
// bad file, branch or URL) keeps what the repository gave before; the model's checks, the
// sync's permission, its filters, and credentials kept out of the logs.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { apis } from "../../generated/server.js";
import { configFromEnv } from "../../runtime/config.js";
import { enginesOn } from "../../runtime/engine.js";
import { taskHandlers } from "../../runtime/features/index.js";
import { credentialedUrl } from "../../runtime/features/git/index.js";
import { Worker } from "../../runtime/queue/worker.js";
import { inventory } from "../../generated/inventory/index.js";
import { Contract } from "../support/contract.js";
import { del, get, patch, post } from "../support/http.js";
import { waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const REPOS = "/api/extras/git-repositories/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };
const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, unknown>, "git-repositories.json");

/** The temporary folders the tests made, removed at the end. */
const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

/** A Git repository in a temporary folder, committed to as the test goes. */
class Source {
  readonly dir = tempDir("armature-git-src-");
  readonly url = pathToFileURL(this.dir).href;

  constructor() {
    this.git("init", "--quiet", "--initial-branch=main");
  }

  git(...args: string[]): string {
    return execFileSync("git", ["-C", this.dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { encoding: "utf8" }).trim();
  }

  /** Writes (or, null, removes) files and commits them; gives the commit's hash. */
  commit(files: Record<string, string | null>): string {
    for (const [path, text] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (text === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
    this.git("add", "--all");
    this.git("commit", "--quiet", "--allow-empty", "-m", "change");
    return this.git("rev-parse", "HEAD");
  }
}

/** A job module as a repository gives it: `job` and `vars` from the package the server provides. */
const helloJob = (className: string, name: string, greeting: string) => `import { job, vars } from "@armature/jobs";

export const ${className} = job({
  name: ${JSON.stringify(name)},
  hasSensitiveVariables: false,
  variables: { who: vars.string({ maxLength: 20 }) },
  async run(data, ctx) {
    await ctx.log_success(null, \`${greeting} \${data.who}\`);
    return \`${greeting} \${data.who}\`;
  },
});
`;

const context = (name: string, data: Record<string, unknown>, meta: Record<string, unknown> = {}) => JSON.stringify({ _metadata: { name, ...meta }, ...data });

describe("git repositories", function () {
  let server: TestServer;
  const workers: Worker[] = [];
  const errors: unknown[] = [];

  /** A worker as `make run`'s, its Git root a folder of its own (as another machine's would be). */
  const startWorker = () => {
    const gitRoot = tempDir("armature-git-root-");
    const config = { ...configFromEnv(), dataDir: "memory://", jobsRoots: server.jobsRoots, gitRoot };
    const handlers = taskHandlers({ config, apis, engineOf: enginesOn(server.db) });
    workers.push(new Worker(server.db, handlers, { pollMs: 50 }, (err) => errors.push(err)).start());
    return gitRoot;
  };

  const created: string[] = [];
  const create = async (body: Record<string, unknown>) => {
    const res = await post(REPOS, { name: uniq("repo"), provided_contents: ["extras.job", "extras.configcontext", "extras.configcontextschema"], ...body });
    expect(res.status, res.text).to.equal(201);
    created.push(res.body.id);
    return res.body as { id: string; name: string; slug: string };
  };

  /** Asks for a sync and gives its result once it ended, with its log. */
  const sync = async (repo: { id: string; name: string }) => {
    const before = new Set((await server.db("extras_jobresult").where("name", repo.name).select("id")).map((r) => r.id));
    const res = await post(`${REPOS}${repo.id}/sync/`, {});
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ message: `Repository ${repo.name} sync job added to queue.` });
    const rows = await server.db("extras_jobresult").where("name", repo.name).select("id");
    const id = rows.map((r) => r.id).find((x) => !before.has(x))!;
    const result = await waitFor(`sync ${id}`, async () => {
      const r = await get(`/api/extras/job-results/${id}/`);
      return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
    }, 120_000);
    const logs = (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<{ message: string; log_level: string; grouping: string }>;
    return { result, logs, text: logs.map((l) => `${l.log_level}: ${l.message}`).join("\n") };
  };

  const contextsOf = async (repoId: string) =>
    (await server.db("extras_configcontext").where({ owner_content_type: "extras.gitrepository", owner_object_id: repoId }).orderBy("name").select("id", "name", "data", "schema_id")) as Array<{ id: string; name: string; data: any; schema_id: string | null }>;

  const gitJob = async (slug: string, className: string) => {
    const res = await get(`/api/extras/jobs/?source=git&limit=0`, V13);
    expect(res.status, res.text).to.equal(200);
    return (res.body.results as Array<Record<string, any>>).find((j) => j.module_name === `${slug}/hello` && j.job_class_name === className);
  };

  /** Enables and runs a job; gives its ended result. */
  const runJob = async (jobId: string, who: string) => {
    expect((await patch(`/api/extras/jobs/${jobId}/`, { enabled: true }, V13)).status).to.equal(200);
    const res = await post(`/api/extras/jobs/${jobId}/run/`, { data: { who }, commit: true }, V13);
    expect(res.status, res.text).to.equal(201);
    const id = res.body.job_result.id;
    return waitFor(`job ${id}`, async () => {
      const r = await get(`/api/extras/job-results/${id}/`);
      return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
    }, 120_000);
  };

  before(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  // The repositories go with what they loaded: other files' devices match no context of theirs.
  after(async () => {
    for (const id of created.splice(0)) await del(`${REPOS}${id}/`);
    for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  describe("the model", () => {
    it("creates with Nautobot's defaults and shapes, and refuses bad URLs and contents", async () => {
      const name = uniq("Repo One");
      const res = await post(REPOS, { name, remote_url: "https://example.com/repo.git" });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ name, branch: "main", current_head: "", secrets_group: null, remote_url: "https://example.com/repo.git" });
      expect(res.body.slug).to.be.a("string").and.not.equal("");
      expect(res.body.provided_contents).to.deep.equal([]);
      contract.check("post", REPOS, res);
      contract.check("get", `${REPOS}{id}/`, await get(`${REPOS}${res.body.id}/`));
      contract.check("get", REPOS, await get(REPOS));
      const brief = await get(`${REPOS}${res.body.id}/?brief=1`);
      expect(Object.keys(brief.body).sort()).to.deep.equal(["display", "id", "name", "url"]);

      const refused = [
        [{ name: uniq("r"), remote_url: "ftp://example.com/x.git" }, { remote_url: ["Enter a valid URL."] }],
        [{ name: uniq("r"), remote_url: "not a url" }, { remote_url: ["Enter a valid URL."] }],
        [{ name: uniq("r"), remote_url: "https://example.com/x.git", provided_contents: ["extras.bogus"] }, { provided_contents: ['"extras.bogus" is not a valid choice.'] }],
        [{ name: uniq("r"), remote_url: "https://example.com/x.git", provided_contents: "extras.job" }, { provided_contents: ['Expected a list of items but got type "str".'] }],
        [{ remote_url: "https://example.com/x.git" }, { name: ["This field is required."] }],
        [{ name, remote_url: "https://example.com/x.git" }, { name: ["git repository with this name already exists."] }],
      ] as const;
      for (const [body, errors] of refused) {
        const r = await post(REPOS, body);
        contract.check("post", REPOS, r);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body, JSON.stringify(body)).to.deep.equal(errors);
      }
      // Export templates are a choice Nautobot registers; accepted, though this API has none.
      const all = await post(REPOS, { name: uniq("r"), remote_url: "file:///srv/repo", provided_contents: ["extras.job", "extras.exporttemplate", "extras.configcontext", "extras.configcontextschema"] });
      expect(all.status, all.text).to.equal(201);
    });

    it("filters as GitRepositoryFilterSet", async () => {
      const group = await post("/api/extras/secrets-groups/", { name: uniq("Git creds") });
      expect(group.status, group.text).to.equal(201);
      const a = await create({ remote_url: "https://example.com/filters-alpha.git", branch: "develop", secrets_group: group.body.id });
      const b = await create({ remote_url: "https://example.com/filters-beta.git" });
      const ids = async (query: string) => ((await get(`${REPOS}?${query}`)).body.results as Array<{ id: string }>).map((r) => r.id).filter((id) => [a.id, b.id].includes(id)).sort();
      expect(await ids(`name=${encodeURIComponent(a.name)}`)).to.deep.equal([a.id]);
      expect(await ids(`slug=${b.slug}`)).to.deep.equal([b.id]);
      expect(await ids("q=filters-")).to.deep.equal([a.id, b.id].sort());
      expect(await ids("branch=develop")).to.deep.equal([a.id]);
      expect(await ids(`secrets_group=${group.body.slug}`)).to.deep.equal([a.id]);
      expect(await ids(`secrets_group_id=${group.body.id}`)).to.deep.equal([a.id]);
      expect(await ids(`remote_url=${encodeURIComponent("https://example.com/filters-beta.git")}`)).to.deep.equal([b.id]);
      expect((await get(`${REPOS}?nonsense=1`)).status).to.equal(400);
    });
  });

  describe("sync", () => {
    it("needs the change permission, in Nautobot's words", async () => {
      const repo = await create({ remote_url: "https://example.com/perm.git" });
      const viewer = await server.user(uniq("gitviewer"), { grants: [{ object_types: ["extras.gitrepository"], actions: ["view"] }] });
      const refused = await post(`${REPOS}${repo.id}/sync/`, {}, { token: viewer.key });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ detail: "This user does not have permission to make changes to Git repositories." });
      contract.check("post", `${REPOS}{id}/sync/`, refused);
      const nobody = await server.user(uniq("gitnobody"));
      expect((await post(`${REPOS}${repo.id}/sync/`, {}, { token: nobody.key })).status).to.equal(403);
      const before = await server.db("extras_jobresult").where("name", repo.name).count({ n: "*" });
      expect(Number(before[0].n)).to.equal(0);
      const changer = await server.user(uniq("gitchanger"), { grants: [{ object_types: ["extras.gitrepository"], actions: ["view", "change"] }] });
      const ok = await post(`${REPOS}${repo.id}/sync/`, {}, { token: changer.key });
      expect(ok.status, ok.text).to.equal(200);
      contract.check("post", `${REPOS}{id}/sync/`, ok);
      const results = await server.db("extras_jobresult").where("name", repo.name).select("obj_type", "status", "job_model_id", "user_id");
      expect(results).to.deep.equal([{ obj_type: "extras.gitrepository", status: "pending", job_model_id: null, user_id: changer.id }]);
      expect((await get(`${REPOS}${repo.id}/sync/`)).status).to.equal(405);
    });

    it("brings a job that then runs, here and on a worker with an empty Git root", async () => {
      startWorker();
      const src = new Source();
      const className = "Hello";
      const jobName = uniq("Hello from git");
      const head = src.commit({ "jobs/hello.ts": helloJob(className, jobName, "hello"), "README.md": "a repository\n" });
      const repo = await create({ remote_url: src.url, provided_contents: ["extras.job"] });
      const { result, text } = await sync(repo);
      expect(result.status.value, text).to.equal("completed");
      expect(result.obj_type).to.equal("extras.gitrepository");
      expect(text).to.include(`The current Git repository hash is "${head}"`);
      expect(text).to.include("success: Created Job record");
      expect((await get(`${REPOS}${repo.id}/`)).body.current_head).to.equal(head);

      const job = await gitJob(repo.slug, className);
      expect(job, "the git job's record").to.include({ source: "git", module_name: `${repo.slug}/hello`, name: jobName, installed: true, enabled: false, slug: `git-${repo.slug}-hello-hello` });
      // API 1.2 names it by Nautobot's class path of a Git repository's job.
      const classPath = `git.${repo.slug}/hello/${className}`;
      const old = await get(`/api/extras/jobs/${classPath}/`, { headers: { Accept: "application/json; version=1.2" } });
      expect(old.status, old.text).to.equal(200);
      expect(old.body).to.include({ id: classPath, name: jobName });

      const ran = await runJob(job!.id, "world");
      expect(ran.status.value).to.equal("completed");
      expect(ran.name).to.equal(classPath);
      expect(ran.data.output).to.equal("\nhello world");

      // A new commit: the next sync imports the new code (a folder of its own), and the job runs it.
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      startWorker();
      src.commit({ "jobs/hello.ts": helloJob(className, jobName, "bonjour") });
      expect((await sync(repo)).result.status.value).to.equal("completed");
      expect((await runJob(job!.id, "monde")).data.output).to.equal("\nbonjour monde");

      // Another machine's worker has none of it: it checks out the commit the database records.
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      const fresh = startWorker();
      expect((await runJob(job!.id, "encore")).data.output).to.equal("\nbonjour encore");
      const { current_head } = (await get(`${REPOS}${repo.id}/`)).body;
      expect(existsSync(join(fresh, repo.id, "commits", current_head, "jobs", "hello.ts"))).to.equal(true);

      // No longer provided: the record stays, not installed.
      await patch(`${REPOS}${repo.id}/`, { provided_contents: [] });
      const { text: dropped } = await sync(repo);
      expect(dropped).to.include("Marking Job record as no longer installed");
      expect((await gitJob(repo.slug, className))!.installed).to.equal(false);
    });

    it("loads config contexts and schemas, refreshes and removes them on the next sync", async () => {
      startWorker();
      const src = new Source();
      const schemaName = uniq("Git schema");
      const site = await post("/api/dcim/sites/", { name: uniq("Git site"), status: "active" });
      expect(site.status, site.text).to.equal(201);
      src.commit({
        "config_context_schemas/schema.yaml": `_metadata:\n  name: ${schemaName}\n  description: From git\ndata_schema:\n  type: object\n  properties:\n    ntp:\n      type: array\n`,
        "config_contexts/base.json": context("git-base", { ntp: ["192.0.2.1"] }, { weight: 500, schema: schemaName }),
        "config_contexts/many.yaml": `- _metadata:\n    name: git-one\n  one: 1\n- _metadata:\n    name: git-two\n  two: 2\n`,
        [`config_contexts/sites/${site.body.slug}.json`]: JSON.stringify({ _metadata: { name: "git-site" }, dns: "192.0.2.53" }),
      });
      const repo = await create({ remote_url: src.url });
      const first = await sync(repo);
      expect(first.result.status.value, first.text).to.equal("completed");
      let contexts = await contextsOf(repo.id);
      expect(contexts.map((c) => c.name)).to.deep.equal(["git-base", "git-one", "git-site", "git-two"]);
      const schema = await server.db("extras_configcontextschema").where({ owner_object_id: repo.id }).first("id", "name", "description");
      expect(schema).to.include({ name: schemaName, description: "From git" });
      const base = (await get(`/api/extras/config-contexts/${contexts[0].id}/`)).body;
      expect(base).to.include({ weight: 500, owner_content_type: "extras.gitrepository", owner_object_id: repo.id });
      expect(base.data).to.deep.equal({ ntp: ["192.0.2.1"] });
      expect(base.schema.id).to.equal(schema.id);
      const bySite = (await get(`/api/extras/config-contexts/${contexts[2].id}/`)).body;
      expect(bySite.sites.map((s: { id: string }) => s.id)).to.deep.equal([site.body.id]);
      // Written through the engine: change records (of the change-logged model here, the schema) carry the sync's result.
      const changes = await get(`/api/extras/object-changes/?request_id=${first.result.id}&limit=0`);
      expect(changes.body.results.map((c: Record<string, any>) => [c.action.value, c.changed_object_type, c.changed_object_id])).to.deep.equal([["create", "extras.configcontextschema", schema.id]]);

      // Unchanged: nothing is written again.
      const again = await sync(repo);
      expect(again.text).to.include("No change to config context");
      expect((await get(`/api/extras/object-changes/?request_id=${again.result.id}`)).body.count).to.equal(0);

      src.commit({ "config_contexts/many.yaml": null, "config_contexts/base.json": context("git-base", { ntp: ["192.0.2.2"] }, { weight: 500, schema: schemaName }) });
      const second = await sync(repo);
      expect(second.result.status.value, second.text).to.equal("completed");
      expect(second.text).to.include("warning: Deleted config context git-one");
      contexts = await contextsOf(repo.id);
      expect(contexts.map((c) => c.name)).to.deep.equal(["git-base", "git-site"]);
      expect(contexts[0].data).to.deep.equal({ ntp: ["192.0.2.2"] });

      // The repository no longer provides them: they go.
      await patch(`${REPOS}${repo.id}/`, { provided_contents: ["extras.job"] });
      expect((await sync(repo)).result.status.value).to.equal("completed");
      expect(await contextsOf(repo.id)).to.deep.equal([]);
      expect(await server.db("extras_configcontextschema").where({ owner_object_id: repo.id })).to.deep.equal([]);
    });

    it("keeps what it loaded before when a sync fails: a bad file, branch or URL", async () => {
      startWorker();
      const src = new Source();
      const good = src.commit({ "config_contexts/a.json": context("git-keep", { a: 1 }), "jobs/hello.ts": helloJob("Kept", uniq("Kept job"), "still") });
      const repo = await create({ remote_url: src.url });
      expect((await sync(repo)).result.status.value).to.equal("completed");
      const kept = await contextsOf(repo.id);
      expect(kept.map((c) => c.name)).to.deep.equal(["git-keep"]);
      const job = (await gitJob(repo.slug, "Kept"))!;

      // A job module that does not import: the sync fails, the job keeps running its commit's code.
      src.commit({ "jobs/hello.ts": "export const Kept = ;\n" });
      const broken = await sync(repo);
      expect(broken.result.status.value, broken.text).to.equal("failed");
      expect(broken.text).to.include("failure: Error in loading Jobs: jobs: unable to load module hello");
      expect(broken.text).to.include("warning: Nothing was changed: the data the repository provided before this sync is kept.");
      expect((await gitJob(repo.slug, "Kept"))!.installed).to.equal(true);
      expect((await runJob(job.id, "here")).data.output).to.equal("\nstill here");
      src.commit({ "jobs/hello.ts": helloJob("Kept", job.name, "still") });

      expect((await sync(repo)).result.status.value).to.equal("completed");
      const synced = (await get(`${REPOS}${repo.id}/`)).body.current_head;
      expect(synced).to.not.equal(good);

      // A file without `_metadata`, beside a change to the good one: none of it is kept.
      src.commit({ "config_contexts/a.json": context("git-keep", { a: 2 }), "config_contexts/b.json": JSON.stringify({ b: 1 }) });
      const bad = await sync(repo);
      expect(bad.result.status.value, bad.text).to.equal("failed");
      expect(bad.text).to.include("failure: Error in loading config context data from `b.json`: data is missing the required `_metadata` key.");
      expect(await contextsOf(repo.id)).to.deep.equal(kept);
      expect((await get(`${REPOS}${repo.id}/`)).body.current_head).to.equal(synced);

      // Not YAML at all.
      src.commit({ "config_contexts/b.json": "{ not: [valid" });
      const unreadable = await sync(repo);
      expect(unreadable.result.status.value).to.equal("failed");
      expect(await contextsOf(repo.id)).to.deep.equal(kept);

      await patch(`${REPOS}${repo.id}/`, { branch: "no-such-branch" });
      const branch = await sync(repo);
      expect(branch.result.status.value).to.equal("errored");
      expect(branch.text).to.include("Please create branch 'no-such-branch' in upstream and try again.");
      expect(await contextsOf(repo.id)).to.deep.equal(kept);

      await patch(`${REPOS}${repo.id}/`, { branch: "main", remote_url: pathToFileURL(join(src.dir, "missing")).href });
      const url = await sync(repo);
      expect(url.result.status.value).to.equal("errored");
      expect(url.text).to.include(`Error while refreshing ${repo.name}`);
      expect(await contextsOf(repo.id)).to.deep.equal(kept);
      expect((await get(`${REPOS}${repo.id}/`)).body.current_head).to.equal(synced);
    });

    it("renamed, its jobs follow it; deleted, what it provided goes", async () => {
      startWorker();
      const src = new Source();
      src.commit({ "jobs/hello.ts": helloJob("Renamed", uniq("Renamed job"), "hi"), "config_contexts/a.json": context("git-deleted", { a: 1 }) });
      const repo = await create({ remote_url: src.url });
      expect((await sync(repo)).result.status.value).to.equal("completed");
      const job = (await gitJob(repo.slug, "Renamed"))!;
      const slug = uniq("renamed-repo");
      expect((await patch(`${REPOS}${repo.id}/`, { slug })).status).to.equal(200);
      const moved = (await get(`/api/extras/jobs/${job.id}/`, V13)).body;
      expect(moved.module_name).to.equal(`${slug}/hello`);
      expect((await runJob(job.id, "there")).data.output).to.equal("\nhi there");

      expect((await contextsOf(repo.id)).length).to.equal(1);
      expect((await del(`${REPOS}${repo.id}/`)).status).to.equal(204);
      expect(await contextsOf(repo.id)).to.deep.equal([]);
      expect((await get(`/api/extras/jobs/${job.id}/`, V13)).body.installed).to.equal(false);
    });

    it("takes credentials from the secrets group and never logs them", async () => {
      startWorker();
      const token = "s3cr3t-t0ken/with?odd&chars";
      process.env.ARMATURE_TEST_GIT_TOKEN = token;
      const secret = await post("/api/extras/secrets/", { name: uniq("git token"), provider: "environment-variable", parameters: { variable: "ARMATURE_TEST_GIT_TOKEN" } });
      const group = await post("/api/extras/secrets-groups/", { name: uniq("git group") });
      const assoc = await post("/api/extras/secrets-groups-associations/", { group: group.body.id, secret: secret.body.id, access_type: "HTTP(S)", secret_type: "token" });
      expect(assoc.status, assoc.text).to.equal(201);
      expect(credentialedUrl({ url: "https://example.com/r.git", branch: "main", username: "me", token })).to.equal(`https://me:${encodeURIComponent(token)}@example.com/r.git`);
      // Nothing listens on port 1: git fails at once, and its message must not carry the token.
      const repo = await create({ remote_url: "http://127.0.0.1:1/r.git", secrets_group: group.body.id });
      const { result, text } = await sync(repo);
      expect(result.status.value).to.equal("errored");
      expect(text).to.not.include(token);
      expect(text).to.not.include(encodeURIComponent(token));
      // A group without a token: Nautobot's warning.
      const empty = await post("/api/extras/secrets-groups/", { name: uniq("empty group") });
      const src = new Source();
      src.commit({ "README.md": "x\n" });
      const other = await create({ remote_url: src.url, secrets_group: empty.body.id });
      const warned = await sync(other);
      expect(warned.result.status.value, warned.text).to.equal("completed");
      expect(warned.text).to.include("warning: Repository has a secrets group assigned but is missing a 'token' secret of access type 'HTTP'.");
    });
  });
});
