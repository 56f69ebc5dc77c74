// Runs sent as multipart/form-data, as Nautobot 1.5.24's run routes take them for jobs with
// file variables (JobMultiPartInputSerializer): `_commit` and `_task_queue` beside the job's
// variables as form fields, files as files; refusals in its words; a body that is no
// well-formed multipart is a 400. The job is test/jobs/api_test_jobs.ts's EveryVariable.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import { Worker } from "../../runtime/queue/worker.js";
import { JOB_TASK, jobHandler } from "../../runtime/features/jobs/index.js";
import { get, patch, post } from "../support/http.js";
import { waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const V13 = { headers: { Accept: "application/json; version=1.3" } };

describe("job runs sent as multipart/form-data", function () {
  let server: TestServer;
  let jobId: string;
  let site: { id: string; name: string };
  const workers: Worker[] = [];
  const errors: unknown[] = [];

  const send = async (path: string, form: FormData | string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { Authorization: `Token ${server.token}`, Accept: "application/json; version=1.3", ...headers }, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, text };
  };
  const formOf = (fields: Record<string, string>, files: Record<string, [string, string]> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [k, [name, content]] of Object.entries(files)) form.append(k, new Blob([content], { type: "text/plain" }), name);
    return form;
  };
  const valid = () => ({ text: "hello", count: "3", flag: "on", colour: "red", site: site.id });

  before(async () => {
    server = await startTestServer();
    const jobs = (await get("/api/extras/jobs/?limit=0", V13)).body.results as Array<{ id: string; job_class_name: string }>;
    jobId = jobs.find((j) => j.job_class_name === "EveryVariable")!.id;
    expect((await patch(`/api/extras/jobs/${jobId}/`, { enabled: true }, V13)).status).to.equal(200);
    const name = uniq("mp-site");
    site = (await post("/api/dcim/sites/", { name, slug: name, status: "active" })).body;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });

  it("takes the settings and the variables as fields and files; the job gets the file's text", async () => {
    const res = await send(`/api/extras/jobs/${jobId}/run/`, formOf({ ...valid(), _commit: "false", _task_queue: "default" }, { upload: ["devices.json", '[{"name": "sw1"}]'] }));
    expect(res.status, res.text).to.equal(201);
    const id = res.body.job_result.id;
    const kwargs = (await server.db("extras_jobresult").where("id", id).first("job_kwargs")).job_kwargs;
    expect(kwargs.commit).to.equal(false);
    expect(kwargs.task_queue).to.equal("default");
    expect(kwargs.data).to.include({ text: "hello", count: 3, flag: true, colour: "red", site: site.id, upload: '[{"name": "sw1"}]' });
    const handler = jobHandler({ apis, engineOf: enginesOn(server.db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    workers.push(new Worker(server.db, { [JOB_TASK]: handler }, { pollMs: 50 }, (err) => errors.push(err)).start());
    const result = await waitFor("the run to end", async () => {
      const r = await get(`/api/extras/job-results/${id}/`);
      return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
    }, 120_000);
    expect(result.status.value).to.equal("completed");
    const logged = (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<{ message: string }>;
    expect(logged.some((l) => l.message.includes('"upload":"[{\\"name\\": \\"sw1\\"}]"'))).to.equal(true);
  });

  it("the class-path route of API 1.2 takes it too; without _commit the job's default holds", async () => {
    const res = await send("/api/extras/jobs/local/api_test_jobs/EveryVariable/run/", formOf(valid()), { Accept: "application/json; version=1.2" });
    expect(res.status, res.text).to.equal(200);
    const kwargs = (await server.db("extras_jobresult").where("id", res.body.result.id).first("job_kwargs")).job_kwargs;
    expect(kwargs.commit).to.equal(true);
  });

  it("refuses bad settings and bad variables in Nautobot's words, and a malformed body; queues nothing", async () => {
    const before = Number((await server.db("extras_jobresult").where("job_model_id", jobId).count({ n: "*" }))[0].n);
    const commit = await send(`/api/extras/jobs/${jobId}/run/`, formOf({ ...valid(), _commit: "maybe" }));
    expect(commit.status).to.equal(400);
    expect(commit.body).to.deep.equal({ _commit: ["Must be a valid boolean."] });
    const interval = await send(`/api/extras/jobs/${jobId}/run/`, formOf({ ...valid(), _schedule_interval: "yearly" }));
    expect(interval.status).to.equal(400);
    expect(interval.body).to.deep.equal({ _schedule_interval: ['"yearly" is not a valid choice.'] });
    const queue = await send(`/api/extras/jobs/${jobId}/run/`, formOf({ ...valid(), _task_queue: "elsewhere" }));
    expect(queue.status).to.equal(400);
    expect(queue.body).to.deep.equal({ task_queue: ['"elsewhere" is not a valid choice.'] });
    const variables = await send(`/api/extras/jobs/${jobId}/run/`, formOf({ ...valid(), count: "many" }));
    expect(variables.status).to.equal(400);
    expect(variables.body).to.deep.equal({ errors: { count: ["Enter a whole number."] } });
    const broken = await send(`/api/extras/jobs/${jobId}/run/`, "--x\r\nnot a part", { "Content-Type": "multipart/form-data; boundary=x" });
    expect(broken.status).to.equal(400);
    expect(broken.body.detail).to.match(/^Multipart form parse error - /);
    const noBoundary = await send(`/api/extras/jobs/${jobId}/run/`, "", { "Content-Type": "multipart/form-data" });
    expect(noBoundary.status).to.equal(400);
    expect(noBoundary.body).to.deep.equal({ detail: "Multipart form parse error - Invalid boundary in multipart: None" });
    // Other routes take JSON only, as before.
    const elsewhere = await send("/api/dcim/sites/", formOf({ name: "x" }));
    expect(elsewhere.status).to.equal(415);
    expect(Number((await server.db("extras_jobresult").where("job_model_id", jobId).count({ n: "*" }))[0].n)).to.equal(before);
  });
});
