// Several `serve` instances (processes) sharing one PostgreSQL, each with its queue worker: a
// cluster this test makes for itself, a job of its own that takes its time, and one instance
// killed with SIGKILL while it runs one. Its lease (QUEUE_LEASE, shortened here) runs out and
// another instance runs the job again and finishes it: what the killed run wrote was rolled
// back with its transaction, so the job's writes are there exactly once. Every other run is
// run exactly once, shared between the instances still up.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { eventually, freePort } from "../support/waiting.js";
import { armature, Cluster, clustersAvailable, kill, serve, serverEnv } from "../support/clusters.js";

const TOKEN = "0123456789abcdef0123456789abcdef01234567";
const V13 = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json", Accept: "application/json; version=1.3" };

const JOB = `import { job, vars } from ${JSON.stringify(pathToFileURL(resolve("runtime/features/jobs/define.ts")).href)};
export const grouping = "Instances";
export const Sleeper = job({
  name: "Sleeper",
  description: "Waits, then creates a tag named by its data.",
  hasSensitiveVariables: false,
  variables: { name: vars.string(), ms: vars.integer() },
  async run(data, ctx) {
    await ctx.log_info("started");
    await new Promise((r) => setTimeout(r, data.ms));
    const tag = await ctx.create("extras.tag", { name: data.name, content_types: ["dcim.site"] });
    return tag.name;
  },
});
`;

describe("many instances on one database, one killed mid-job", function () {
  this.timeout(600_000);
  let cluster: Cluster | undefined;
  let jobsRoot: string | undefined;
  const servers: Array<Awaited<ReturnType<typeof serve>>> = [];

  before(function () {
    // The PostgreSQL pass, where PostgreSQL's own tools are at hand.
    if (!process.env.DATABASE_URL || !clustersAvailable()) this.skip();
  });
  after(async () => {
    for (const s of servers) kill(s);
    await cluster?.remove();
    if (jobsRoot) rmSync(jobsRoot, { recursive: true, force: true });
  });

  it("another instance finishes the killed one's job once its lease runs out, its writes once; every other run runs exactly once", async () => {
    cluster = await Cluster.init(await freePort());
    await cluster.start();
    jobsRoot = mkdtempSync(join(tmpdir(), "armature-instance-jobs-"));
    writeFileSync(join(jobsRoot, "sleepers.ts"), JOB);
    // A lease short enough to wait out, long enough that a busy machine's late renewal never loses one.
    const env = serverEnv(cluster.url, { JOBS_ROOT: jobsRoot, QUEUE_WORKER: "1", QUEUE_LEASE: "10", QUEUE_POLL_INTERVAL: "1" });
    const setup = armature(env, "createsuperuser", "--username", "admin", "--password", "admin-password", "--token", TOKEN);
    expect(await setup.exited, setup.out()).to.equal(0);

    const doomed = await serve(env);
    servers.push(doomed);
    const listed = await (await fetch(`${doomed.base}/api/extras/jobs/?limit=0`, { headers: V13 })).json() as { results: Array<{ id: string; job_class_name: string }> };
    const sleeper = listed.results.find((j) => j.job_class_name === "Sleeper")!;
    expect((await fetch(`${doomed.base}/api/extras/jobs/${sleeper.id}/`, { method: "PATCH", headers: V13, body: JSON.stringify({ enabled: true }) })).status).to.equal(200);
    const run = async (base: string, name: string, ms: number) => {
      const res = await fetch(`${base}/api/extras/jobs/${sleeper.id}/run/`, { method: "POST", headers: V13, body: JSON.stringify({ data: { name, ms } }) });
      expect(res.status, await res.clone().text()).to.equal(201);
      return ((await res.json()) as { job_result: { id: string } }).job_result.id;
    };
    const status = async (base: string, id: string) =>
      ((await (await fetch(`${base}/api/extras/job-results/${id}/`, { headers: V13 })).json()) as { status: { value: string } }).status.value;

    // The only instance up takes the run; killed while the job waits inside it (5 s: long
    // enough to be killed in, a few polls after it is seen running). Run again, it waits as
    // long once more, then writes.
    const cut = await run(doomed.base, "cut-short", 5_000);
    await eventually(async () => ((await status(doomed.base, cut)) === "running" ? true : undefined), "the job running");
    kill(doomed);
    await doomed.exited;

    const others = await Promise.all([serve(env), serve(env)]);
    servers.push(...others);
    const names = Array.from({ length: 20 }, (_, i) => `shared-${i}`);
    const ids = await Promise.all(names.map((name, i) => run(others[i % 2].base, name, 300)));
    const ended = (id: string) => eventually(async () => {
      const s = await status(others[0].base, id);
      return ["completed", "errored", "failed"].includes(s) ? s : undefined;
    }, `job result ${id} ended`);
    expect(await ended(cut), "the killed instance's job").to.equal("completed");
    const outcomes = await Promise.all(ids.map(ended));
    const why = await Promise.all(ids.filter((_, i) => outcomes[i] !== "completed").map(async (id) => (await fetch(`${others[0].base}/api/extras/job-results/${id}/logs/`, { headers: V13 })).text()));
    expect(outcomes, why.join("\n")).to.deep.equal(ids.map(() => "completed"));

    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    try {
      const tags = (await db.query("SELECT name, count(*)::int AS n FROM extras_tag WHERE name = ANY($1) GROUP BY name", [[...names, "cut-short"]])).rows;
      expect(Object.fromEntries(tags.map((t) => [t.name, t.n])), "tags made, each once, the job cut short's too").to.deep.equal(Object.fromEntries([...names, "cut-short"].map((n) => [n, 1])));
      const tasks = (await db.query(`SELECT t.payload->>'result' AS result, t.state, array_agg(a.outcome ORDER BY a.attempt) AS outcomes, array_agg(a.worker ORDER BY a.attempt) AS workers
        FROM armature_tasks t JOIN armature_task_attempts a ON a.task_id = t.id GROUP BY t.id`)).rows as Array<{ result: string; state: string; outcomes: string[]; workers: string[] }>;
      const byResult = new Map(tasks.map((t) => [t.result, t]));
      const killed = byResult.get(cut)!;
      expect(killed.outcomes, "the killed instance's attempt, then another's").to.deep.equal(["abandoned", "succeeded"]);
      expect(new Set(killed.workers).size).to.equal(2);
      expect(ids.map((id) => byResult.get(id)!.outcomes), "each shared run attempted once").to.deep.equal(ids.map(() => ["succeeded"]));
      const workers = new Set(ids.flatMap((id) => byResult.get(id)!.workers));
      expect(workers.size, "runs shared by the instances up").to.be.at.least(2);
    } finally {
      await db.end();
    }
  });
});
