// Job hooks through the real server and the queue: `/api/extras/job-hooks/` with Nautobot's
// fields, nested form, filters and refusals (a job that is no job-hook receiver, no kind of
// change, two hooks of one job for the same change of the same type); and runs: a run of the
// hook's job for each create, update and delete of an object of its types, once per change,
// after the write commits, given the change; none for other types, disabled hooks, kinds of
// change the hook is not for, writes rolled back, or the hook receiver's own writes. The
// receivers are jobs/device_checks.ts and test/jobs/receiver_test_jobs.ts.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import { Worker } from "../../runtime/queue/worker.js";
import { JOB_TASK, jobHandler } from "../../runtime/features/jobs/index.js";
import { loadFixtures } from "../../runtime/fixtures.js";
import { Operations, SYSTEM_NAME } from "../../runtime/operations/index.js";
import { del, get, patch, post, put } from "../support/http.js";
import { waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const HOOKS = "/api/extras/job-hooks/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };

interface JobRecord { id: string; job_class_name: string; name: string; slug: string }

describe("job hooks", function () {
  let server: TestServer;
  const jobs = new Map<string, JobRecord>();
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  const made: string[] = [];

  const job = (className: string) => jobs.get(className)!;
  const startWorker = () => {
    const handler = jobHandler({ apis, engineOf: enginesOn(server.db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    workers.push(new Worker(server.db, { [JOB_TASK]: handler }, { pollMs: 50 }, (err) => errors.push(err)).start());
  };
  /** The results of a job, oldest first, as the database has them (none is made by anything but a hook here). */
  const resultsOf = async (jobId: string) => server.db("extras_jobresult").where("job_model_id", jobId).orderBy("created").select("id", "status", "user_id", "job_kwargs");
  const ended = (id: string) => waitFor(`job result ${id} to end`, async () => {
    const r = await get(`/api/extras/job-results/${id}/`);
    return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
  }, 120_000);
  const logsOf = async (id: string) => (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<Record<string, any>>;
  const hook = async (body: Record<string, unknown>) => {
    const res = await post(HOOKS, body);
    expect(res.status, res.text).to.equal(201);
    made.push(res.body.id);
    return res.body;
  };

  before(async () => {
    server = await startTestServer();
    for (const j of (await get("/api/extras/jobs/?limit=0", V13)).body.results as JobRecord[]) jobs.set(j.job_class_name, j);
    for (const name of ["RecordChange", "DeviceChangeCheck"]) {
      expect((await patch(`/api/extras/jobs/${job(name).id}/`, { enabled: true }, V13)).status).to.equal(200);
    }
  });
  afterEach(async () => {
    for (const id of made.splice(0)) await del(`${HOOKS}${id}/`);
    // Runs the hooks queued and no test ran, so that none is left for a later worker.
    const pending = await server.db("extras_jobresult").whereIn("job_model_id", [job("RecordChange").id, job("DeviceChangeCheck").id])
      .whereIn("status", ["pending", "running"]).select("id");
    if (pending.length && !workers.length) startWorker();
    for (const r of pending) await ended(r.id);
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });

  describe("the model", () => {
    it("the job records say which jobs are hook receivers; their variable is the object change", async () => {
      const records = (await get("/api/extras/jobs/?limit=0&is_job_hook_receiver=true", V13)).body.results as JobRecord[];
      expect(records.map((r) => r.job_class_name).sort()).to.deep.equal(["DeviceChangeCheck", "RecordChange"]);
      const vars = await get(`/api/extras/jobs/${job("RecordChange").id}/variables/`, V13);
      expect(vars.body).to.deep.equal([{ name: "object_change", type: "ObjectVar", required: true, model: "extras.objectchange" }]);
      expect((await get(`/api/extras/jobs/${job("Overrun").id}/`, V13)).body.is_job_hook_receiver).to.equal(false);
    });

    it("created, read, listed, filtered, changed and deleted with Nautobot's fields and nested form", async () => {
      const name = uniq("hook");
      const h = await hook({ name, content_types: ["dcim.site", "dcim.region"], job: job("RecordChange").id, type_create: true });
      // A write's reply also has computed_fields and relationships; a GET only when it includes them.
      expect(Object.keys((await get(`${HOOKS}${h.id}/`)).body).sort()).to.deep.equal(
        ["content_types", "created", "custom_fields", "display", "enabled", "id", "job", "last_updated", "name", "notes_url", "type_create", "type_delete", "type_update", "url"],
      );
      expect(h).to.include({ name, display: name, enabled: true, type_create: true, type_update: false, type_delete: false });
      expect(h.content_types).to.deep.equal(["dcim.region", "dcim.site"]);
      expect(h.job.id).to.equal(job("RecordChange").id);
      expect(h.url).to.match(new RegExp(`/api/extras/job-hooks/${h.id}/$`));
      const brief = await get(`${HOOKS}${h.id}/?brief=1`);
      expect(Object.keys(brief.body).sort()).to.deep.equal(["display", "id", "name", "url"]);
      const slug = (await server.db("extras_jobhook").where("id", h.id).first("slug")).slug;
      expect(slug).to.equal(name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-"));

      for (const [query, found] of [
        [`name=${name}`, true], [`slug=${slug}`, true], [`q=${name.slice(0, 8)}`, true], [`content_types=dcim.site`, true], [`content_types=dcim.device`, false],
        [`job=${job("RecordChange").id}`, true], [`job=${job("RecordChange").slug}`, true], [`job=${job("DeviceChangeCheck").slug}`, false],
        ["type_create=true", true], ["type_update=true", false], ["enabled=false", false],
      ] as const) {
        const res = await get(`${HOOKS}?${query}`);
        expect(res.status, `${query}: ${res.text}`).to.equal(200);
        expect(res.body.results.some((x: { id: string }) => x.id === h.id), query).to.equal(found);
      }

      const changed = await patch(`${HOOKS}${h.id}/`, { type_update: true, enabled: false, content_types: ["dcim.site"] });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body).to.include({ type_update: true, enabled: false });
      expect(changed.body.content_types).to.deep.equal(["dcim.site"]);
      const replaced = await put(`${HOOKS}${h.id}/`, { name, content_types: ["dcim.site"], job: job("RecordChange").id, type_delete: true });
      expect(replaced.status, replaced.text).to.equal(200);
      // As DRF's PUT: what it leaves out keeps its value.
      expect(replaced.body).to.include({ type_create: true, type_update: true, type_delete: true, enabled: false });
      const gone = await del(`${HOOKS}${h.id}/`);
      expect(gone.status).to.equal(204);
      expect((await get(`${HOOKS}${h.id}/`)).status).to.equal(404);
    });

    it("refuses a job that is no hook receiver, no kind of change, and a second hook of a job for the same change of a type", async () => {
      const before = Number((await server.db("extras_jobhook").count({ n: "*" }))[0].n);
      const other = job("Overrun").id;
      const notReceiver = await post(HOOKS, { name: uniq("hook"), content_types: ["dcim.site"], job: other, type_create: true });
      expect(notReceiver.status).to.equal(400);
      expect(notReceiver.body).to.deep.equal({ job: [`job instance with id UUID('${other}') does not exist.`] });

      const none = await post(HOOKS, { name: uniq("hook"), content_types: ["dcim.site"], job: job("RecordChange").id });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ non_field_errors: ["You must select at least one type: create, update, and/or delete."] });

      const missing = await post(HOOKS, { name: uniq("hook"), job: job("RecordChange").id, type_create: true });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.have.property("content_types");

      const notLogged = await post(HOOKS, { name: uniq("hook"), content_types: ["extras.objectchange"], job: job("RecordChange").id, type_create: true });
      expect(notLogged.status).to.equal(400);
      expect(notLogged.body).to.have.property("content_types");

      const first = await hook({ name: uniq("hook"), content_types: ["dcim.site", "dcim.region"], job: job("RecordChange").id, type_create: true, type_update: true });
      const clash = await post(HOOKS, { name: uniq("hook"), content_types: ["dcim.region", "dcim.rack"], job: job("RecordChange").id, type_update: true, type_delete: true });
      expect(clash.status).to.equal(400);
      expect(clash.body).to.deep.equal({ type_update: ["A job hook already exists for update on DCIM | region to job Record change"] });
      // Another job, or other kinds of change, do not clash.
      await hook({ name: uniq("hook"), content_types: ["dcim.region"], job: job("DeviceChangeCheck").id, type_update: true });
      const second = await hook({ name: uniq("hook"), content_types: ["dcim.region"], job: job("RecordChange").id, type_delete: true });
      // A change that would make it clash is refused when it names the job, as Nautobot checks it.
      const widened = await patch(`${HOOKS}${second.id}/`, { job: job("RecordChange").id, type_create: true });
      expect(widened.status).to.equal(400);
      expect(widened.body).to.deep.equal({ type_create: ["A job hook already exists for create on DCIM | region to job Record change"] });
      const duplicate = await post(HOOKS, { name: first.name, content_types: ["dcim.rack"], job: job("RecordChange").id, type_create: true });
      expect(duplicate.status).to.equal(400);
      expect(duplicate.body).to.deep.equal({ name: ["job hook with this name already exists."] });
      expect(Number((await server.db("extras_jobhook").count({ n: "*" }))[0].n)).to.equal(before + 3);
    });
  });

  describe("runs", () => {
    it("one run per create, update and delete of an object of its types, after the commit, given the change", async () => {
      const recorder = job("RecordChange").id;
      const start = (await resultsOf(recorder)).length;
      await hook({ name: uniq("hook"), content_types: ["dcim.site"], job: recorder, type_create: true, type_update: true, type_delete: true });
      // The receiver's own tags would run this hook if its writes ran hooks.
      await hook({ name: uniq("hook"), content_types: ["extras.tag"], job: recorder, type_create: true });

      const name = uniq("hooked-site");
      const site = await post("/api/dcim/sites/", { name, slug: name, status: "active" });
      expect(site.status, site.text).to.equal(201);
      const created = await resultsOf(recorder);
      expect(created.length - start).to.equal(1);
      const admin = await server.db("users_user").where("username", "admin").first("id");
      expect(created.at(-1)).to.include({ status: "pending", user_id: admin.id });
      const changes = await get(`/api/extras/object-changes/?changed_object_id=${site.body.id}`);
      expect(created.at(-1)!.job_kwargs).to.deep.equal({ data: { object_change: changes.body.results[0].id }, commit: true, task_queue: null });

      expect((await patch(`/api/dcim/sites/${site.body.id}/`, { description: "changed" })).status).to.equal(200);
      expect((await resultsOf(recorder)).length - start).to.equal(2);
      startWorker();
      for (const r of (await resultsOf(recorder)).slice(start)) await ended(r.id);
      expect((await del(`/api/dcim/sites/${site.body.id}/`)).status).to.equal(204);
      const all = (await resultsOf(recorder)).slice(start);
      expect(all).to.have.length(3);

      const outputs: string[] = [];
      for (const r of all) {
        const result = await ended(r.id);
        expect(result.status.value, JSON.stringify(await logsOf(r.id))).to.equal("completed");
        outputs.push(result.data.output);
        const lines = await logsOf(r.id);
        expect(lines.some((l) => l.message.startsWith(`${result.data.output.trim().split(" ")[0]} dcim.site ${site.body.id}`))).to.equal(true);
      }
      expect(outputs).to.deep.equal([`\ncreate ${site.body.id}`, `\nupdate ${site.body.id}`, `\ndelete ${site.body.id}`]);
      const deleteLine = (await logsOf(all[2].id)).find((l) => l.message.startsWith("delete"));
      expect(deleteLine!.message).to.match(/ gone$/);
      // The object as it was when the run came, the change as it was made.
      const updateLine = (await logsOf(all[1].id)).find((l) => l.message.startsWith("update"));
      expect(updateLine!.message).to.equal(`update dcim.site ${site.body.id} ${name}`);

      // The receiver's tags were made (as a job hook's changes) and ran no hook themselves.
      const tags = await server.db("extras_tag").where("name", "like", "hooked-%").count({ n: "*" });
      expect(Number(tags[0].n)).to.be.at.least(3);
      const records = await server.db("extras_objectchange").where("changed_object_type", "extras.tag").where("object_repr", "like", "hooked-%").select("change_context");
      expect(records.length).to.be.at.least(3);
      expect([...new Set(records.map((r) => r.change_context))]).to.deep.equal(["job-hook"]);
      expect((await resultsOf(recorder)).length - start).to.equal(3);
    });

    it("none for other content types, kinds of change the hook is not for, disabled hooks, or writes rolled back", async () => {
      const recorder = job("RecordChange").id;
      const start = (await resultsOf(recorder)).length;
      await hook({ name: uniq("hook"), content_types: ["dcim.site"], job: recorder, type_delete: true });
      await hook({ name: uniq("hook"), content_types: ["dcim.region"], job: recorder, type_create: true, enabled: false });

      const name = uniq("unhooked");
      const site = await post("/api/dcim/sites/", { name, slug: name, status: "active" });
      expect(site.status).to.equal(201);
      expect((await patch(`/api/dcim/sites/${site.body.id}/`, { description: "x" })).status).to.equal(200);
      expect((await post("/api/dcim/regions/", { name, slug: name })).status).to.equal(201);
      expect((await post("/api/tenancy/tenants/", { name, slug: name })).status).to.equal(201);
      // A bulk delete refused as a whole (the second id exists nowhere) deletes nothing and runs nothing.
      const refused = await del("/api/dcim/sites/", [{ id: site.body.id }, { id: "00000000-0000-4000-8000-000000000000" }]);
      expect(refused.status).to.be.within(400, 499);
      expect((await resultsOf(recorder)).length - start).to.equal(0);

      expect((await del(`/api/dcim/sites/${site.body.id}/`)).status).to.equal(204);
      expect((await resultsOf(recorder)).length - start).to.equal(1);
    });

    it("a bulk write runs the hook once per object; a job's own writes run hooks", async () => {
      const recorder = job("RecordChange").id;
      const start = (await resultsOf(recorder)).length;
      await hook({ name: uniq("hook"), content_types: ["tenancy.tenant"], job: recorder, type_create: true, type_update: true });
      const names = [uniq("bulk"), uniq("bulk"), uniq("bulk")];
      const res = await post("/api/tenancy/tenants/", names.map((n) => ({ name: n, slug: n })));
      expect(res.status, res.text).to.equal(201);
      expect((await resultsOf(recorder)).length - start).to.equal(3);
      const updated = await patch("/api/tenancy/tenants/", res.body.map((t: { id: string }) => ({ id: t.id, description: "bulk" })));
      expect(updated.status, updated.text).to.equal(200);
      expect((await resultsOf(recorder)).length - start).to.equal(6);

      // A tag written by a job (not a hook's) runs the hook on tags: once, as a change through the API would.
      await hook({ name: uniq("hook"), content_types: ["extras.tag"], job: recorder, type_create: true });
      const writer = (await get("/api/extras/jobs/?job_class_name=TagWriter", V13)).body.results[0];
      expect((await patch(`/api/extras/jobs/${writer.id}/`, { enabled: true }, V13)).status).to.equal(200);
      const run = await post(`/api/extras/jobs/${writer.id}/run/`, { data: { name: uniq("job-tag") } }, V13);
      expect(run.status, run.text).to.equal(201);
      startWorker();
      expect((await ended(run.body.job_result.id)).status.value).to.equal("completed");
      const after = (await resultsOf(recorder)).slice(start);
      expect(after).to.have.length(7);
      for (const r of after) await ended(r.id);
      // The hook's own tags ran nothing more.
      expect((await resultsOf(recorder)).length - start).to.equal(7);
    });

    it("a change of a system operation (fixtures, the command line) runs the hook as the system's, with no user", async () => {
      const recorder = job("RecordChange").id;
      const start = (await resultsOf(recorder)).length;
      await hook({ name: uniq("hook"), content_types: ["dcim.site"], job: recorder, type_create: true });
      const name = uniq("system-site");
      await new Operations(server.db).run(Operations.system("fixtures"), (trx) =>
        loadFixtures(trx, apis.find((a) => a.changeLog)!, [{ model: "dcim.site", data: { name, slug: name, status: "active" } }]));
      const queued = (await resultsOf(recorder)).slice(start);
      expect(queued).to.have.length(1);
      expect(queued[0]).to.include({ status: "pending", user_id: null });
      startWorker();
      const result = await ended(queued[0].id);
      expect(result.status.value, JSON.stringify(await logsOf(queued[0].id))).to.equal("completed");
      const site = await server.db("dcim_site").where("name", name).first("id");
      expect(result.data.output).to.equal(`\ncreate ${site.id}`);
      // The receiver's own write is the system's too: recorded with no user, as a job hook's.
      const [tag] = await server.db("extras_objectchange").where("changed_object_type", "extras.tag").where("request_id", queued[0].id).select("user_id", "user_name", "change_context");
      expect(tag).to.deep.equal({ user_id: null, user_name: SYSTEM_NAME, change_context: "job-hook" });
    });

    it("the shipped device check logs an active device's gaps and ends failed", async () => {
      const checker = job("DeviceChangeCheck").id;
      const start = (await resultsOf(checker)).length;
      await hook({ name: uniq("hook"), content_types: ["dcim.device"], job: checker, type_create: true });
      const n = uniq("chk");
      const site = (await post("/api/dcim/sites/", { name: n, slug: n, status: "active" })).body;
      const maker = (await post("/api/dcim/manufacturers/", { name: n, slug: n })).body;
      const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: n, slug: n })).body;
      const role = (await post("/api/dcim/device-roles/", { name: n, slug: n })).body;
      const device = await post("/api/dcim/devices/", { name: n, site: site.id, device_type: type.id, device_role: role.id, status: "active", serial: "SN1" });
      expect(device.status, device.text).to.equal(201);
      const [r] = (await resultsOf(checker)).slice(start);
      startWorker();
      const result = await ended(r.id);
      expect(result.status.value).to.equal("failed");
      const failures = (await logsOf(r.id)).filter((l) => l.log_level === "failure").map((l) => l.message);
      expect(failures).to.deep.equal(["has no primary IP address", "has no platform"]);
    });
  });
});
