// A job's time limits through the real server and the queue: past its hard limit a run ends
// errored, logged, its writes rolled back; past its soft limit the job is told once and may end
// early. (A worker that dies mid-run is test/e2e/jobs.test.ts's.) The jobs are
// test/jobs/receiver_test_jobs.ts's Overrun (a 1 s limit) and SoftStop (a 1 s soft limit).
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import { Worker } from "../../runtime/queue/worker.js";
import { JOB_TASK, jobHandler } from "../../runtime/features/jobs/index.js";
import { get, patch, post } from "../support/http.js";
import { waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";

const V13 = { headers: { Accept: "application/json; version=1.3" } };

describe("job time limits", function () {
  let server: TestServer;
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  const ids = new Map<string, string>();

  const ended = (id: string) => waitFor(`job result ${id} to end`, async () => {
    const r = await get(`/api/extras/job-results/${id}/`);
    return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
  }, 120_000);
  const logsOf = async (id: string) => (await get(`/api/extras/job-results/${id}/logs/`)).body as Array<Record<string, any>>;
  const run = async (className: string) => {
    const res = await post(`/api/extras/jobs/${ids.get(className)}/run/`, {}, V13);
    expect(res.status, res.text).to.equal(201);
    const handler = jobHandler({ apis, engineOf: enginesOn(server.db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    workers.push(new Worker(server.db, { [JOB_TASK]: handler }, { pollMs: 50 }, (err) => errors.push(err)).start());
    return ended(res.body.job_result.id);
  };

  before(async () => {
    server = await startTestServer();
    for (const j of (await get("/api/extras/jobs/?limit=0", V13)).body.results) ids.set(j.job_class_name, j.id);
    for (const name of ["Overrun", "SoftStop"]) expect((await patch(`/api/extras/jobs/${ids.get(name)}/`, { enabled: true }, V13)).status).to.equal(200);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });

  it("the record shows the job's limits", async () => {
    const job = (await get(`/api/extras/jobs/${ids.get("Overrun")}/`, V13)).body;
    expect(job).to.include({ soft_time_limit: 0, time_limit: 1 });
  });

  it("past its hard limit a run ends errored, logged, and nothing it wrote is kept", async () => {
    const result = await run("Overrun");
    expect(result.status.value).to.equal("errored");
    const messages = (await logsOf(result.id)).map((l) => l.message as string);
    expect(messages.some((m) => m.startsWith("An exception occurred: `TimeLimitExceeded: The job ran past its time limit of 1 seconds and was stopped.`"))).to.equal(true);
    expect(messages.at(-1)).to.equal("Database changes have been reverted due to error.");
    expect(Number((await server.db("extras_tag").where("name", `overrun-${result.id}`).count({ n: "*" }))[0].n)).to.equal(0);
  });

  it("past its soft limit the job is told once, and may end early and well", async () => {
    const result = await run("SoftStop");
    expect(result.status.value).to.equal("completed");
    expect(result.data.output).to.equal("\nstopped early");
    const warnings = (await logsOf(result.id)).filter((l) => l.log_level === "warning").map((l) => l.message);
    expect(warnings).to.deep.equal(["stopping early: The job ran past its soft time limit of 1 seconds."]);
  });
});
