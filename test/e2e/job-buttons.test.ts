// Job buttons through the real server and the queue: `/api/extras/job-buttons/` with
// Nautobot's fields, filters and refusal of a job that is no job-button receiver; and a
// button's run on one object (Nautobot's JobButtonRunView, served at
// `/api/extras/job-buttons/<id>/run/`): queued as the requester, the receiver given the object;
// refused without the permission to run jobs, to a requester who cannot see the button, with
// a read-only token, or for an object that is missing or of a type the button is not for.
// The receiver is test/jobs/receiver_test_jobs.ts's PressButton.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import { Worker } from "../../runtime/queue/worker.js";
import { JOB_TASK, jobHandler } from "../../runtime/features/jobs/index.js";
import { del, get, patch, post } from "../support/http.js";
import { waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { MISSING_ID, uniq } from "./inventory/support.js";

const BUTTONS = "/api/extras/job-buttons/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };

interface JobRecord { id: string; job_class_name: string; name: string; slug: string }

describe("job buttons", function () {
  let server: TestServer;
  const jobs = new Map<string, JobRecord>();
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  let button: Record<string, any>;
  let site: Record<string, any>;

  const job = (className: string) => jobs.get(className)!;
  const startWorker = () => {
    const handler = jobHandler({ apis, engineOf: enginesOn(server.db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    workers.push(new Worker(server.db, { [JOB_TASK]: handler }, { pollMs: 50 }, (err) => errors.push(err)).start());
  };
  const ended = (id: string) => waitFor(`job result ${id} to end`, async () => {
    const r = await get(`/api/extras/job-results/${id}/`);
    return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
  }, 120_000);
  const logsOf = async (id: string) => (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<Record<string, any>>;
  const results = async () => Number((await server.db("extras_jobresult").where("job_model_id", job("PressButton").id).count({ n: "*" }))[0].n);
  const press = (body: unknown, opts: Parameters<typeof post>[2] = {}) => post(`${BUTTONS}${button.id}/run/`, body, opts);

  before(async () => {
    server = await startTestServer();
    for (const j of (await get("/api/extras/jobs/?limit=0", V13)).body.results as JobRecord[]) jobs.set(j.job_class_name, j);
    expect((await patch(`/api/extras/jobs/${job("PressButton").id}/`, { enabled: true }, V13)).status).to.equal(200);
    const name = uniq("btn-site");
    site = (await post("/api/dcim/sites/", { name, slug: name, status: "active" })).body;
    const made = await post(BUTTONS, { name: uniq("button"), job: job("PressButton").id, content_types: ["dcim.site", "dcim.device"], text: "Press {{ obj.name }}" });
    expect(made.status, made.text).to.equal(201);
    button = made.body;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  after(async () => {
    await del(`${BUTTONS}${button.id}/`);
  });

  describe("the model", () => {
    it("Nautobot's fields, defaults, nested form and filters; the job records say which jobs are button receivers", async () => {
      const shown = await get(`${BUTTONS}${button.id}/`);
      expect(Object.keys(shown.body).sort()).to.deep.equal(
        ["button_class", "confirmation", "content_types", "created", "display", "group_name", "id", "job", "last_updated", "name", "notes_url", "text", "url", "weight"],
      );
      expect(shown.body).to.include({ button_class: "default", confirmation: true, weight: 100, group_name: "", text: "Press {{ obj.name }}", display: button.name });
      expect(shown.body.content_types).to.deep.equal(["dcim.device", "dcim.site"]);
      expect(shown.body.job.id).to.equal(job("PressButton").id);
      expect(Object.keys((await get(`${BUTTONS}${button.id}/?brief=1`)).body).sort()).to.deep.equal(["display", "id", "name", "url"]);
      for (const [query, found] of [
        [`name=${button.name}`, true], [`q=${button.name.slice(0, 8)}`, true], ["q=obj.name", true], ["content_types=dcim.site", true], ["content_types=dcim.rack", false],
        [`job=${job("PressButton").slug}`, true], [`job=${job("RecordChange").id}`, false], ["weight=100", true], ["button_class=danger", false], ["confirmation=true", true],
      ] as const) {
        const res = await get(`${BUTTONS}?${query}`);
        expect(res.status, `${query}: ${res.text}`).to.equal(200);
        expect(res.body.results.some((x: { id: string }) => x.id === button.id), query).to.equal(found);
      }
      const receivers = (await get("/api/extras/jobs/?limit=0&is_job_button_receiver=true", V13)).body.results as JobRecord[];
      expect(receivers.map((r) => r.job_class_name)).to.deep.equal(["PressButton"]);
      const variables = await get(`/api/extras/jobs/${job("PressButton").id}/variables/`, V13);
      expect(variables.body.map((x: { name: string; type: string }) => [x.name, x.type])).to.deep.equal([["object_pk", "StringVar"], ["object_model_name", "StringVar"]]);
    });

    it("refuses a job that is no button receiver, a bad button class, and changes like any model", async () => {
      const other = job("RecordChange").id;
      const bad = await post(BUTTONS, { name: uniq("button"), job: other, content_types: ["dcim.site"], text: "x" });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ job: [`job instance with id UUID('${other}') does not exist.`] });
      const colour = await post(BUTTONS, { name: uniq("button"), job: job("PressButton").id, content_types: ["dcim.site"], text: "x", button_class: "purple" });
      expect(colour.status).to.equal(400);
      expect(colour.body.button_class).to.deep.equal(['"purple" is not a valid choice.']);
      const moved = await patch(`${BUTTONS}${button.id}/`, { job: other });
      expect(moved.status).to.equal(400);
      const changed = await patch(`${BUTTONS}${button.id}/`, { weight: 50, group_name: "Checks", button_class: "danger" });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body).to.include({ weight: 50, group_name: "Checks", button_class: "danger" });
    });
  });

  describe("running", () => {
    it("queues the button's job on the object as the requester; the receiver is given the object", async () => {
      const res = await press({ object_pk: site.id, object_model_name: "dcim.site" });
      expect(res.status, res.text).to.equal(201);
      expect(Object.keys(res.body)).to.deep.equal(["job_result"]);
      expect(res.body.job_result.status.value).to.equal("pending");
      startWorker();
      const result = await ended(res.body.job_result.id);
      expect(result.status.value).to.equal("completed");
      expect(result.data.output).to.equal(`\n${site.id}`);
      expect(result.job_kwargs).to.deep.equal({ data: { object_pk: site.id, object_model_name: "dcim.site" }, commit: true, task_queue: null });
      const line = (await logsOf(result.id)).find((l) => l.log_level === "success");
      expect(line).to.include({ message: "pressed by admin", log_object: site.name });
    });

    it("refuses missing fields, an unknown model, a type the button is not for and a missing object; queues nothing", async () => {
      const before = await results();
      for (const [body, field] of [
        [{}, "object_pk"], [{ object_pk: site.id }, "object_model_name"], [{ object_pk: site.id, object_model_name: "dcim.nothing" }, "object_model_name"],
        [{ object_pk: site.id, object_model_name: "dcim.rack" }, "object_model_name"], [{ object_pk: MISSING_ID, object_model_name: "dcim.site" }, "object_pk"],
        [{ object_pk: "not-an-id", object_model_name: "dcim.site" }, "object_pk"],
      ] as const) {
        const res = await press(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.have.property(field);
      }
      expect((await press([1])).status).to.equal(400);
      expect((await get(`${BUTTONS}${button.id}/run/`)).status).to.equal(405);
      expect((await post(`${BUTTONS}${MISSING_ID}/run/`, { object_pk: site.id, object_model_name: "dcim.site" })).status).to.equal(404);
      expect(await results()).to.equal(before);
    });

    it("needs the permission to run jobs and to see the button; a read-only token is refused", async () => {
      const before = await results();
      const body = { object_pk: site.id, object_model_name: "dcim.site" };
      const viewer = await server.user(uniq("btn-viewer"), { grants: [{ object_types: ["extras.jobbutton", "dcim.site"], actions: ["view"] }] });
      const noRun = await press(body, { token: viewer.key });
      expect(noRun.status).to.equal(403);
      expect(noRun.body).to.deep.equal({ detail: "You do not have permission to perform this action." });
      const blind = await server.user(uniq("btn-blind"), { grants: [{ object_types: ["extras.job"], actions: ["view", "run"] }, { object_types: ["dcim.site"], actions: ["view"] }] });
      expect((await press(body, { token: blind.key })).status).to.equal(403);
      const readOnly = await server.user(uniq("btn-readonly"), { superuser: true, writeEnabled: false });
      expect((await press(body, { token: readOnly.key })).status).to.equal(403);
      expect(await results()).to.equal(before);

      const runner = await server.user(uniq("btn-runner"), { grants: [{ object_types: ["extras.job"], actions: ["run"] }, { object_types: ["extras.jobbutton", "dcim.site"], actions: ["view"] }] });
      const ok = await press(body, { token: runner.key });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.job_result.user.id).to.equal(runner.id);
      startWorker();
      expect((await ended(ok.body.job_result.id)).status.value).to.equal("completed");
    });

    it("a disabled job's run is queued and ends errored, as Nautobot's run_job ends it", async () => {
      expect((await patch(`/api/extras/jobs/${job("PressButton").id}/`, { enabled: false }, V13)).status).to.equal(200);
      try {
        const res = await press({ object_pk: site.id, object_model_name: "dcim.site" });
        expect(res.status).to.equal(201);
        startWorker();
        const result = await ended(res.body.job_result.id);
        expect(result.status.value).to.equal("errored");
        expect((await logsOf(result.id))[0].message).to.equal("Job Press button is not enabled to be run!");
      } finally {
        await patch(`/api/extras/jobs/${job("PressButton").id}/`, { enabled: true }, V13);
      }
    });
  });
});
