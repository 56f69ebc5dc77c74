// Jobs through the real server and the queue: `/api/extras/jobs/` in API 1.2's form (job
// classes, class-path routes) and 1.3's (job records, `<id>/run/`, `<id>/variables/`); runs
// that commit, dry runs, failures of both kinds, refused variables and refused requesters;
// results and their logs, lines of one instant in their order; change records and webhook
// deliveries that carry the result as their request id; a hundred runs shared by two
// workers, each run once; a worker that dies mid-run leaving its result errored. The jobs
// are the shipped ones and test/jobs/api_test_jobs.ts.
import { expect } from "chai";
import type { Knex } from "knex";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import { claim } from "../../runtime/queue/tasks.js";
import { Worker } from "../../runtime/queue/worker.js";
import type { Database } from "../../runtime/db/connect.js";
import { JOB_TASK, JobRecords, jobHandler } from "../../runtime/features/jobs/index.js";
import { loadCatalog } from "../../runtime/features/jobs/catalog.js";
import { ModelIndex } from "../../runtime/models.js";
import { gate } from "../jobs/api_test_jobs.js";
import { del, get, patch, post } from "../support/http.js";
import { queueDatabase, waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const JOBS = "/api/extras/jobs/";
const v = (version: string) => ({ headers: { Accept: `application/json; version=${version}` } });
const V13 = v("1.3");

/** Nautobot's JobResultTest and JobLogEntryTest brief fields. */
const RESULT_BRIEF = ["completed", "created", "display", "id", "name", "status", "url", "user"];
const LOG_BRIEF = ["absolute_url", "created", "display", "grouping", "id", "job_result", "log_level", "log_object", "message", "url"];
const JOB_BRIEF = ["display", "grouping", "id", "job_class_name", "module_name", "name", "slug", "source", "url"];

interface JobRecord { id: string; job_class_name: string; slug: string; enabled: boolean }

describe("jobs", function () {
  let server: TestServer;
  let second: Database | undefined;
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  const jobs = new Map<string, JobRecord>();

  /** A worker running jobs as `make run`'s would, on the test database (or, `db`, another pool of it). */
  const startWorker = (db: Knex = server.db, settings: ConstructorParameters<typeof Worker>[2] = {}) => {
    const handler = jobHandler({ apis, engineOf: enginesOn(db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    const w = new Worker(db, { [JOB_TASK]: handler }, { pollMs: 50, ...settings }, (err) => errors.push(err)).start();
    workers.push(w);
    return w;
  };

  const job = (className: string) => jobs.get(className)!;
  const enable = async (className: string, enabled = true) => {
    const res = await patch(`${JOBS}${job(className).id}/`, { enabled }, V13);
    expect(res.status, res.text).to.equal(200);
  };
  const run = (className: string, body: unknown, opts: Parameters<typeof post>[2] = V13) => post(`${JOBS}${job(className).id}/run/`, body, opts);
  /** The result once it ended (polled; the bound is generous). */
  const ended = (id: string) => waitFor(`job result ${id} to end`, async () => {
    const r = await get(`/api/extras/job-results/${id}/`);
    return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
  }, 120_000);
  const logsOf = async (id: string) => (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<Record<string, any>>;
  const tagCount = async (name: string) => Number((await server.db("extras_tag").where("name", name).count({ n: "*" }))[0].n);

  before(async () => {
    server = await startTestServer();
    const listed = (await get(`${JOBS}?limit=0`, V13)).body.results as JobRecord[];
    for (const j of listed) jobs.set(j.job_class_name, j);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  after(async () => {
    await second?.close();
  });

  describe("the two forms of /api/extras/jobs/", () => {
    it("unspecified and 1.2: a bare list of installed job classes; 1.3 and later: paginated job records", async () => {
      for (const opts of [{}, v("1.2")]) {
        const res = await get(JOBS, opts);
        expect(res.status).to.equal(200);
        expect(res.headers.get("api-version")).to.equal("1.2");
        expect(res.body).to.be.an("array");
        const tagWriter = res.body.find((c: { id: string }) => c.id === "local/api_test_jobs/TagWriter");
        const { result, ...jobClass } = tagWriter;
        expect(jobClass).to.deep.equal({
          url: `${server.url}${JOBS}local/api_test_jobs/TagWriter/`, id: "local/api_test_jobs/TagWriter", pk: job("TagWriter").id,
          name: "Tag writer", description: "Creates a tag (named by its data) and logs it; with `fail`, then throws.",
          test_methods: [], vars: { name: "StringVar", fail: "BooleanVar" },
        });
        // Other files sharing the server may have run the job first: its latest result, or none.
        if (result !== null) expect(result).to.include({ name: "local/api_test_jobs/TagWriter" });
        expect(res.body.map((c: { id: string }) => c.id)).to.include.members([
          "local/prefix_utilisation/PrefixUtilisation", "local/device_onboarding/DeviceOnboarding", "local/data_quality/DevicesWithoutPrimaryIp",
        ]);
      }
      for (const version of ["1.3", "1.5"]) {
        const res = await get(JOBS, v(version));
        expect(res.status).to.equal(200);
        expect(res.body).to.include.keys("count", "next", "previous", "results");
        const record = res.body.results.find((j: JobRecord) => j.job_class_name === "TagWriter");
        expect(record).to.include({ source: "local", module_name: "api_test_jobs", grouping: "API tests", name: "Tag writer", slug: "local-api_test_jobs-tagwriter", installed: true });
        expect(record).to.include.keys("grouping_override", "name_override", "description_override", "approval_required_override", "commit_default_override",
          "hidden_override", "read_only_override", "soft_time_limit_override", "time_limit_override", "has_sensitive_variables_override", "task_queues_override",
          "is_job_hook_receiver", "is_job_button_receiver", "task_queues", "tags", "custom_fields", "notes_url", "created", "last_updated");
        expect(record).not.to.have.any.keys("variables", "source_values");
      }
      const brief = await get(`${JOBS}?brief=1`, V13);
      expect(Object.keys(brief.body.results[0]).sort()).to.deep.equal(JOB_BRIEF);
    });

    it("a job by class path in every version (404 for none), by id in every version", async () => {
      for (const opts of [{}, V13]) {
        const res = await get(`${JOBS}local/api_test_jobs/TagWriter/`, opts);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({ id: "local/api_test_jobs/TagWriter", name: "Tag writer" });
        expect((await get(`${JOBS}local/api_test_jobs/NoSuchJob/`, opts)).status).to.equal(404);
      }
      const byId = await get(`${JOBS}${job("TagWriter").id}/`);
      expect(byId.status).to.equal(200);
      expect(byId.body.job_class_name).to.equal("TagWriter");
    });

    it("variables: each variable's type and attributes, in order", async () => {
      const res = await get(`${JOBS}${job("EveryVariable").id}/variables/`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([
        { name: "text", type: "StringVar", label: "Some text", help_text: "Three to ten letters", required: true, min_length: 3, max_length: 10 },
        { name: "notes", type: "TextVar", required: false },
        { name: "count", type: "IntegerVar", required: true, min_value: 1, max_value: 5, default: 2 },
        { name: "flag", type: "BooleanVar", required: false },
        { name: "colour", type: "ChoiceVar", required: true, choices: [["red", "Red"], ["green", "Green"]] },
        { name: "colours", type: "MultiChoiceVar", required: false, choices: [["red", "Red"], ["green", "Green"], ["blue", "Blue"]] },
        { name: "site", type: "ObjectVar", required: true, model: "dcim.site" },
        { name: "tags", type: "MultiObjectVar", required: false, model: "extras.tag" },
        { name: "address", type: "IPAddressVar", required: false },
        { name: "interface_address", type: "IPAddressWithMaskVar", required: false },
        { name: "network", type: "IPNetworkVar", required: false },
        { name: "upload", type: "FileVar", required: false },
      ]);
    });

    it("the sync keeps overridden values, takes the source's others back, and marks vanished jobs not installed", async () => {
      const index = new ModelIndex(apis.find((a) => a.jobs)!);
      const catalog = await loadCatalog(server.jobsRoots);
      const url = `${JOBS}${job("FailureLogger").id}/`;
      await patch(url, { name: "Renamed for good", name_override: true, description: "Edited, not overridden" }, V13);
      const without = new Map([...catalog.jobs].filter(([path]) => path !== "local/api_test_jobs/Waiter"));
      const report = await new JobRecords(index).sync(server.db, { jobs: without, problems: [] });
      expect(report.uninstalled).to.deep.equal(["local/api_test_jobs/Waiter"]);
      expect((await get(`${JOBS}${job("Waiter").id}/`, V13)).body.installed).to.equal(false);
      expect((await get(JOBS)).body.map((c: { id: string }) => c.id)).not.to.include("local/api_test_jobs/Waiter");
      const kept = (await get(url, V13)).body;
      expect([kept.name, kept.description]).to.deep.equal(["Renamed for good", "Logs a failure, which marks the run failed."]);
      // API 1.2 shows the job class as its source names it.
      expect((await get(`${JOBS}local/api_test_jobs/FailureLogger/`)).body.name).to.equal("Failure logger");
      await patch(url, { name: "Failure logger", name_override: false }, V13);
      await new JobRecords(index).sync(server.db, catalog);
      expect((await get(`${JOBS}${job("Waiter").id}/`, V13)).body.installed).to.equal(true);
    });

    it("jobs cannot be created; a job with sensitive variables cannot need approval", async () => {
      expect((await post(JOBS, { name: "x" }, V13)).status).to.equal(405);
      const id = job("EveryVariable").id;
      const both = await patch(`${JOBS}${id}/`, { has_sensitive_variables: true, approval_required: true }, V13);
      expect(both.status).to.equal(400);
      expect(both.body).to.deep.equal({
        approval_required: ["A job with sensitive variables cannot also be marked as requiring approval"],
        has_sensitive_variables: ["A job with sensitive variables cannot also be marked as requiring approval"],
      });
    });
  });

  describe("running", () => {
    before(async () => {
      for (const name of ["EveryVariable", "TagWriter", "FailureLogger", "Waiter"]) await enable(name);
      // Its record refuses every change through the API (Nautobot's serializer too): enabled in the database.
      await server.db("extras_job").where("id", job("SensitiveApproval").id).update({ enabled: true });
    });

    it("a run is answered with its pending result; a worker runs it; the result and its logs tell how it went", async () => {
      const name = uniq("job-tag");
      const res = await run("TagWriter", { data: { name } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.schedule).to.equal(null);
      expect(Object.keys(res.body.job_result).sort()).to.deep.equal(RESULT_BRIEF);
      expect(res.body.job_result.status).to.deep.equal({ value: "pending", label: "Pending" });
      expect(res.body.job_result.user.username).to.equal("admin");
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      expect(result).to.deep.include({ name: "local/api_test_jobs/TagWriter", obj_type: "extras.job", data: { output: `\n${name}` }, schedule: null });
      expect(result.job_model.id).to.equal(job("TagWriter").id);
      expect(result.job_kwargs).to.deep.equal({ data: { name, fail: false }, commit: true, task_queue: null });
      expect(result.completed).to.be.a("string");
      expect(await tagCount(name)).to.equal(1);
      const logs = await logsOf(result.id);
      expect(logs.map((l) => [l.log_level, l.grouping, l.log_object, l.message])).to.deep.equal([["success", "run", name, "created"]]);
      expect(logs[0].absolute_url).to.match(/^\/api\/extras\/tags\/[0-9a-f-]{36}\/$/);
      expect(Object.keys(logs[0]).sort()).to.deep.equal(LOG_BRIEF.filter((k) => k !== "job_result"));
      // The entries' own endpoint, filtered by result, in the full (and brief) form.
      const listed = await get(`/api/extras/job-logs/?job_result=${result.id}&brief=1`);
      expect(listed.body.count).to.equal(1);
      expect(Object.keys(listed.body.results[0]).sort()).to.deep.equal(LOG_BRIEF);
      expect(listed.body.results[0].job_result).to.equal(result.id);
      expect(listed.body.results[0].display).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
      const filtered = await get(`/api/extras/job-results/?job_model=${job("TagWriter").slug}&status=completed&brief=1`);
      expect(filtered.body.results.map((r: { id: string }) => r.id)).to.include(result.id);
      expect(Object.keys(filtered.body.results[0]).sort()).to.deep.equal(RESULT_BRIEF);
      // API 1.2 shows it as the job class's latest result.
      const asClass = await get(`${JOBS}local/api_test_jobs/TagWriter/`);
      expect(asClass.body.result.id).to.equal(result.id);
      expect(asClass.body.result.job_kwargs).to.deep.equal(result.job_kwargs);
    });

    it("its change records carry the result as request id, the job as their context, and the user who ran it", async () => {
      const name = uniq("job-change");
      const res = await run("TagWriter", { data: { name } });
      startWorker();
      const result = await ended(res.body.job_result.id);
      const records = await server.db("extras_objectchange").where("request_id", result.id);
      expect(records.map((r) => [r.action, r.changed_object_type, r.object_repr, r.change_context, r.change_context_detail, r.user_name])).to.deep.equal([
        ["create", "extras.tag", name, "job", job("TagWriter").slug, "admin"],
      ]);
    });

    it("its writes are sent to webhooks, with the result as request id; a dry run's are not", async () => {
      const hook = await post("/api/extras/webhooks/", {
        name: uniq("job-hook"), content_types: ["extras.tag"], type_create: true, payload_url: "http://127.0.0.1:9/job-hook",
      });
      expect(hook.status, hook.text).to.equal(201);
      const deliveries = (requestId: string) => server.db("armature_tasks").where("kind", "webhook").whereRaw("payload->>'requestId' = ?", [requestId]).select("payload");
      try {
        const name = uniq("job-hooked");
        const kept = await run("TagWriter", { data: { name } });
        const dry = await run("TagWriter", { data: { name: uniq("job-hooked-dry") }, commit: false });
        startWorker();
        const result = await ended(kept.body.job_result.id);
        expect(result.status.value).to.equal("completed");
        const [delivery, ...more] = await deliveries(result.id);
        expect(more).to.deep.equal([]);
        expect(JSON.parse(delivery.payload.body)).to.deep.include({ event: "created", model: "tag", username: "admin", request_id: result.id });
        expect(JSON.parse(delivery.payload.body).data.name).to.equal(name);
        expect((await ended(dry.body.job_result.id)).status.value).to.equal("completed");
        expect(await deliveries(dry.body.job_result.id)).to.deep.equal([]);
      } finally {
        expect((await del(`/api/extras/webhooks/${hook.body.id}/`)).status).to.equal(204);
      }
    });

    it("a dry run (commit: false) logs and ends, and leaves nothing", async () => {
      const name = uniq("job-dry");
      const res = await run("TagWriter", { data: { name }, commit: false });
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      expect(await tagCount(name)).to.equal(0);
      expect(await server.db("extras_objectchange").where("request_id", result.id)).to.deep.equal([]);
      expect((await logsOf(result.id)).map((l) => [l.log_level, l.message])).to.deep.equal([
        ["success", "created"], ["info", "Database changes have been reverted automatically."],
      ]);
    });

    it("an exception ends the run errored, logged with its trace, its writes rolled back; a logged failure ends it failed", async () => {
      const name = uniq("job-fail");
      const thrown = await run("TagWriter", { data: { name, fail: true } });
      const failing = await run("FailureLogger", {});
      startWorker();
      const errored = await ended(thrown.body.job_result.id);
      expect(errored.status.value).to.equal("errored");
      expect(await tagCount(name)).to.equal(0);
      const logs = await logsOf(errored.id);
      expect(logs.map((l) => l.log_level)).to.deep.equal(["success", "failure", "info"]);
      expect(logs[1].message).to.match(/^An exception occurred: `TypeError: told to fail`\n```\nTypeError: told to fail\n\s+at /);
      expect(logs[2].message).to.equal("Database changes have been reverted due to error.");
      const failed = await ended(failing.body.job_result.id);
      expect(failed.status.value).to.equal("failed");
      expect((await logsOf(failed.id)).map((l) => [l.log_level, l.message])).to.deep.equal([
        ["warning", "about to fail"], ["failure", "something is wrong"], ["info", "Database changes have been reverted automatically."],
      ]);
    });

    it("data the variables refuse is a 400 naming them, as Nautobot words it; nothing is queued", async () => {
      const before = Number((await server.db("extras_jobresult").count({ n: "*" }))[0].n);
      const site = (await get("/api/dcim/sites/?limit=1")).body.results[0];
      const refusals: Array<[unknown, unknown]> = [
        [{ data: "invalid" }, { errors: ["Job data needs to be a dict"] }],
        [{ data: { name: "x", var5: "wrong" } }, { errors: { var5: ["Job data contained an unknown property"] } }],
        [{ data: { name: null } }, { errors: ["name is a required field"] }],
        [{ data: {} }, { errors: { name: ["This field is required."] } }],
        [{ data: { name: "x" }, commit: "perhaps" }, { commit: ["Must be a valid boolean."] }],
        [{ data: { name: "x" }, task_queue: "invalid" }, { task_queue: ['"invalid" is not a valid choice.'] }],
        ["just text", { non_field_errors: ["Invalid data. Expected a dictionary, but got str."] }],
      ];
      for (const [body, expected] of refusals) {
        const res = await run("TagWriter", body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body).to.deep.equal(expected);
      }
      const bad = await run("EveryVariable", { data: {
        text: "ab", count: "many", colour: "blue", colours: ["red", "pink"], site: { name: "no such site" }, tags: "x",
        address: "10.0.0.1/24", interface_address: "10.0.0.1", network: "10.0.0.1/24", upload: "contents",
      } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ errors: {
        text: ["Ensure this value has at least 3 characters (it has 2)."],
        count: ["Enter a whole number."],
        colour: ["Select a valid choice. blue is not one of the available choices."],
        colours: ["Select a valid choice. pink is not one of the available choices."],
        site: ["Select a valid choice. That choice is not one of the available choices."],
        tags: ["Enter a list of values."],
        address: ["Invalid IPv4/IPv6 address format: 10.0.0.1/24"],
        interface_address: ["CIDR mask (e.g. /24) is required."],
        network: ["10.0.0.1/24 is not a valid prefix. Did you mean 10.0.0.0/24?"],
      } });
      // A multi-object variable's values, by id or attributes, found together: one that names nothing is refused by its value.
      const [red, blue] = await Promise.all([uniq("job-red"), uniq("job-blue")].map(async (name) => (await post("/api/extras/tags/", { name, content_types: ["dcim.site"] })).body));
      const required = { text: "abcd", count: 1, colour: "red", site: site.id };
      const unknownTag = await run("EveryVariable", { data: { ...required, tags: [red.id, "nope"] } });
      expect(unknownTag.status).to.equal(400);
      expect(unknownTag.body).to.deep.equal({ errors: { tags: ["Select a valid choice. nope is not one of the available choices."] } });
      const good = await run("EveryVariable", { data: {
        text: "abcd", count: "3", flag: "false", colour: "red", site: { slug: site.slug }, network: "10.0.0.0/24", address: "2001:DB8::1",
        tags: [red.id, { slug: blue.slug }, red.id],
      }, commit: false });
      expect(good.status, good.text).to.equal(201);
      const after = Number((await server.db("extras_jobresult").count({ n: "*" }))[0].n);
      expect(after).to.equal(before + 1);
      startWorker();
      const result = await ended(good.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      expect(result.job_kwargs.data).to.deep.include({ text: "abcd", count: 3, flag: false, colour: "red", site: site.id, network: "10.0.0.0/24", address: "2001:db8::1", notes: "", colours: [], tags: [red.id, blue.id] });
      const logs = await logsOf(result.id);
      expect(logs[0]).to.include({ log_level: "info", log_object: site.name, message: `site ${site.name}` });
      // The job was given the objects, in full and in order.
      expect(JSON.parse(logs[1].message).tags).to.deep.equal([red.id, blue.id]);
      expect(result.data).to.deep.equal({ output: "\n{\"count\":3}" });
    });

    it("refuses a disabled job, an uninstalled one, a requester without run permission and a read-only token", async () => {
      await enable("TagWriter", false);
      const disabled = await run("TagWriter", { data: { name: "x" } });
      expect(disabled.status).to.equal(403);
      expect(disabled.body).to.deep.equal({ detail: "This job is not enabled to be run." });
      await enable("TagWriter");

      const viewer = await server.user(uniq("job-viewer"), { grants: [{ object_types: ["extras.job"], actions: ["view"] }] });
      for (const [path, status] of [[`${JOBS}${job("TagWriter").id}/run/`, 403], [`${JOBS}local/api_test_jobs/TagWriter/run/`, 403]] as const) {
        const res = await post(path, { data: { name: "x" } }, { ...V13, token: viewer.key });
        expect(res.status, path).to.equal(status);
        expect(res.body).to.deep.equal({ detail: "You do not have permission to perform this action." });
      }
      // A run permission whose constraints leave this job out: it is not found.
      const narrow = await server.user(uniq("job-narrow"), { grants: [{ object_types: ["extras.job"], actions: ["view", "run"], constraints: { module_name__in: ["data_quality"] } }] });
      expect((await run("TagWriter", { data: { name: "x" } }, { ...V13, token: narrow.key })).status).to.equal(404);
      // So are its class-path routes, and API 1.2's list shows only the jobs the constraints leave in.
      expect((await post(`${JOBS}local/api_test_jobs/TagWriter/run/`, { data: { name: "x" } }, { token: narrow.key })).status).to.equal(404);
      const classes = await get(JOBS, { token: narrow.key });
      expect(classes.body.map((c: { id: string }) => c.id)).to.deep.equal(["local/data_quality/DevicesWithoutPrimaryIp"]);

      const readOnly = await server.user(uniq("job-readonly"), { superuser: true, writeEnabled: false });
      expect((await run("TagWriter", { data: { name: "x" } }, { ...V13, token: readOnly.key })).status).to.equal(403);

      expect((await get(`${JOBS}${job("TagWriter").id}/run/`)).status).to.equal(405);
      const both = await run("SensitiveApproval", {});
      expect(both.status).to.equal(400);
      expect(both.body[0]).to.match(/^Unable to run or schedule job: This job is flagged as possibly having sensitive variables/);

      await server.db("extras_job").where("id", job("FailureLogger").id).update({ installed: false });
      expect((await run("FailureLogger", {})).status).to.equal(405);
      await server.db("extras_job").where("id", job("FailureLogger").id).update({ installed: true });
    });

    it("a job's writes are checked against the permissions of the user who ran it", async () => {
      const runner = await server.user(uniq("job-runner"), { grants: [{ object_types: ["extras.job"], actions: ["view", "run"] }] });
      const name = uniq("job-denied");
      const res = await run("TagWriter", { data: { name } }, { ...V13, token: runner.key });
      expect(res.status, res.text).to.equal(201);
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("errored");
      expect(result.user.id).to.equal(runner.id);
      // The engine's problem, by its code: the log is no request's answer for a profile to word.
      expect((await logsOf(result.id))[0].message).to.match(/^An exception occurred: `Error: forbidden`/);
      expect(await tagCount(name)).to.equal(0);
    });

    it("API 1.2's run by class path answers 200 with the job class and its new pending result", async () => {
      const name = uniq("job-legacy");
      const res = await post(`${JOBS}local/api_test_jobs/TagWriter/run/`, { data: { name } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ id: "local/api_test_jobs/TagWriter", pk: job("TagWriter").id });
      expect(res.body.result.status).to.deep.equal({ value: "pending", label: "Pending" });
      expect(res.body.result.job_kwargs.data.name).to.equal(name);
      startWorker();
      expect((await ended(res.body.result.id)).status.value).to.equal("completed");
      expect((await post(`${JOBS}local/api_test_jobs/NoSuchJob/run/`, {})).status).to.equal(404);
    });

    it("logs are readable while the job runs", async function () {
      // The embedded database has one connection, which the job's transaction holds while it runs.
      if (server.engine === "pglite") this.skip();
      gate.reset();
      const res = await run("Waiter", {});
      startWorker();
      const id = res.body.job_result.id;
      const early = await waitFor("the waiting line", async () => {
        const logs = await logsOf(id);
        return logs.length ? logs : undefined;
      });
      expect(early.map((l) => l.message)).to.deep.equal(["waiting"]);
      expect((await get(`/api/extras/job-results/${id}/`)).body.status.value).to.equal("running");
      gate.open();
      expect((await ended(id)).status.value).to.equal("completed");
      expect((await logsOf(id)).map((l) => l.message)).to.deep.equal(["waiting", "let go"]);
    });

    it("lines logged within one instant keep the order they were written in, on both log routes", async () => {
      // PGlite's clock moves by whole milliseconds: many lines share a time.
      await enable("ManyLines");
      const res = await run("ManyLines", { data: { count: 200 } });
      expect(res.status, res.text).to.equal(201);
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      const written = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
      expect((await logsOf(result.id)).map((l) => l.message)).to.deep.equal(written);
      const listed = await get(`/api/extras/job-logs/?job_result_id=${result.id}&limit=1000`);
      expect(listed.body.results.map((l: { message: string }) => l.message)).to.deep.equal(written);
    });

    it("a hundred runs shared by two workers: each runs exactly once", async () => {
      const prefix = uniq("job-many");
      const ids: string[] = [];
      for (let i = 0; i < 100; i++) {
        const res = await run("TagWriter", { data: { name: `${prefix}-${i}` } });
        expect(res.status, res.text).to.equal(201);
        ids.push(res.body.job_result.id);
      }
      // On PostgreSQL the second worker has a connection pool of its own, as another instance would.
      second ??= server.engine === "pglite" ? undefined : await queueDatabase();
      startWorker(server.db, { concurrency: 4 });
      startWorker(second?.knex ?? server.db, { concurrency: 4 });
      // The tasks end after their results do: a worker records the attempt once the job's transaction committed.
      const tasks = () => server.db("armature_tasks").where("kind", JOB_TASK).whereRaw("payload->>'result' = ANY(?)", [ids]);
      await waitFor("the hundred runs", async () => Number((await tasks().whereNot("state", "succeeded").count({ n: "*" }))[0].n) === 0, 300_000);
      const statuses = await server.db("extras_jobresult").whereIn("id", ids).select("status");
      expect(statuses.every((r) => r.status === "completed")).to.equal(true);
      const tags = await server.db("extras_tag").where("name", "like", `${prefix}-%`).select("name");
      expect(tags).to.have.length(100);
      expect(new Set(tags.map((t) => t.name)).size).to.equal(100);
      const lines = await server.db("extras_joblogentry").whereIn("job_result_id", ids).count({ n: "*" });
      expect(Number(lines[0].n)).to.equal(100);
      const attempts = await server.db("armature_task_attempts").whereIn("task_id", tasks().select("id")).select("outcome");
      expect(attempts).to.have.length(100);
      expect(attempts.every((a) => a.outcome === "succeeded")).to.equal(true);
    });

    it("a worker that dies mid-run: once its lease ran out the job runs again, from the start, its writes kept once", async () => {
      const name = uniq("job-dead");
      const res = await run("TagWriter", { data: { name } });
      const id = res.body.job_result.id;
      // A worker claims the task, marks the result running, and dies: nothing renews its lease.
      const [task] = await claim(server.db, { worker: "dead-worker", kinds: [JOB_TASK], limit: 1, leaseMs: 300 });
      expect(task.payload).to.deep.include({ result: id });
      await server.db("extras_jobresult").where("id", id).update({ status: "running" });
      // The dead worker's lease is the short one. The rescuer's own keeps the default: renewed
      // only when the database is free (on PGlite the job's transaction holds its connection),
      // one of 300 ms ran out mid-run on a loaded machine and the job was claimed a third time.
      startWorker(server.db);
      const result = await ended(id);
      expect(result.status.value).to.equal("completed");
      expect((await logsOf(id))[0]).to.deep.include({ log_level: "warning", grouping: "initialization" });
      expect((await logsOf(id))[0].message).to.include("the job runs again");
      expect(await tagCount(name)).to.equal(1);
      const attempts = await server.db("armature_task_attempts").where("task_id", task.id).orderBy("attempt").select("outcome");
      expect(attempts.map((a) => a.outcome)).to.deep.equal(["abandoned", "succeeded"]);
    });
  });

  describe("the shipped jobs", () => {
    before(async () => {
      for (const name of ["PrefixUtilisation", "DeviceOnboarding", "DevicesWithoutPrimaryIp"]) await enable(name);
    });

    it("prefix utilisation reports each prefix's use, warning above the threshold", async () => {
      const container = (await post("/api/ipam/prefixes/", { prefix: "10.251.0.0/16", status: "container" })).body;
      await post("/api/ipam/prefixes/", { prefix: "10.251.0.0/17", status: "active" });
      const small = (await post("/api/ipam/prefixes/", { prefix: "10.251.128.0/30", status: "active" })).body;
      await post("/api/ipam/ip-addresses/", { address: "10.251.128.1/30", status: "active" });
      await post("/api/ipam/ip-addresses/", { address: "10.251.128.2/30", status: "active" });
      const res = await run("PrefixUtilisation", { data: { within: "10.251.0.0/16", threshold: 60 } });
      expect(res.status, res.text).to.equal(201);
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      const lines = (await logsOf(result.id)).map((l) => [l.log_level, l.log_object, l.message]);
      expect(lines).to.deep.include(["success", container.prefix, "50% used (32772 of 65536 addresses)"]);
      expect(lines).to.deep.include(["warning", small.prefix, "100% used (2 of 2 addresses)"]);
      expect(result.data.output).to.equal("\n3 prefixes, 1 above 60%");
    });

    it("device onboarding creates devices, interfaces and primary addresses through the pipeline; the check then finds none missing", async () => {
      const site = (await post("/api/dcim/sites/", { name: uniq("onboard-site"), status: "active" })).body;
      const maker = (await post("/api/dcim/manufacturers/", { name: uniq("Onboard maker") })).body;
      const type = (await post("/api/dcim/device-types/", { model: uniq("Onboard model"), manufacturer: maker.id })).body;
      const role = (await post("/api/dcim/device-roles/", { name: uniq("Onboard role") })).body;
      const devices = [
        { name: uniq("edge"), device_type: type.slug, device_role: role.slug, interface: "mgmt0", primary_ip4: "192.0.2.10/24" },
        { name: uniq("core"), device_type: type.slug, device_role: role.slug },
      ];
      const res = await run("DeviceOnboarding", { data: { devices: JSON.stringify(devices), site: site.id } });
      expect(res.status, res.text).to.equal(201);
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value, JSON.stringify(await logsOf(result.id))).to.equal("completed");
      const made = (await get(`/api/dcim/devices/?site_id=${site.id}`)).body.results;
      expect(made.map((d: { name: string }) => d.name).sort()).to.deep.equal(devices.map((d) => d.name).sort());
      const edge = made.find((d: { name: string }) => d.name === devices[0].name);
      expect(edge.primary_ip4.address).to.equal("192.0.2.10/24");
      const changes = await server.db("extras_objectchange").where("request_id", result.id).select("changed_object_type", "action");
      expect(changes.map((c) => `${c.changed_object_type} ${c.action}`).sort()).to.deep.equal(["dcim.device create", "dcim.device create", "dcim.interface create", "ipam.ipaddress create"]);

      const check = await run("DevicesWithoutPrimaryIp", { data: { site: site.id } });
      startWorker();
      const checked = await ended(check.body.job_result.id);
      expect(checked.status.value).to.equal("failed");
      expect((await logsOf(checked.id)).map((l) => [l.log_level, l.log_object])).to.deep.equal([["failure", devices[1].name]]);
    });
  });
});
