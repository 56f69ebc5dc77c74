// Scheduled jobs through the real server: each kind of schedule in a run's body (the 1.3 id
// route and 1.2's class-path one), the scheduled job the answer gives and when it fires next;
// bad schedules refused in Nautobot's words; the scheduler, given its time by the test, firing
// a due schedule once though two race for it, and moving its next run on; approval (refused to
// the requester and to those without the permissions), denial, dry runs; the scheduled jobs'
// filters. The jobs are test/jobs/api_test_jobs.ts's.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { enginesOn } from "../../runtime/engine.js";
import type { Database } from "../../runtime/db/connect.js";
import { Worker } from "../../runtime/queue/worker.js";
import { JOB_TASK, Schedules, jobHandler } from "../../runtime/features/jobs/index.js";
import { periodicTasks, taskHandlers } from "../../runtime/features/index.js";
import { configFromEnv } from "../../runtime/config.js";
import { get, patch, post } from "../support/http.js";
import { queueDatabase, waitFor } from "../support/queue.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { uniq } from "./inventory/support.js";

const JOBS = "/api/extras/jobs/";
const SCHEDULED = "/api/extras/scheduled-jobs/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };

/** NestedScheduledJobSerializer's fields, and ScheduledJobSerializer's. */
const NESTED = ["crontab", "display", "id", "interval", "name", "start_time", "url"];
const FULL = ["approval_required", "approved_at", "approved_by_user", "crontab", "date_changed", "description", "display", "id", "interval", "job_class",
  "job_model", "last_run_at", "name", "queue", "task", "total_run_count", "url", "user"];

/** A Monday, 10:15:30 UTC, far enough ahead to be a valid start. */
const START = "2030-01-07T10:15:30Z";
const at = (iso: string) => new Date(iso);

interface ScheduleRow { next_run_at: Date | null; last_run_at: Date | null; total_run_count: number; enabled: boolean; approved_at: Date | null }

describe("scheduled jobs", function () {
  let server: TestServer;
  let second: Database | undefined;
  const workers: Worker[] = [];
  const errors: unknown[] = [];
  const jobs = new Map<string, { id: string; slug: string }>();
  let schedules: Schedules;

  const job = (className: string) => jobs.get(className)!;
  const run = (className: string, body: unknown, opts: Parameters<typeof post>[2] = V13) => post(`${JOBS}${job(className).id}/run/`, body, opts);
  const row = async (id: string): Promise<ScheduleRow> => (await server.db("extras_scheduledjob").where("id", id)
    .first("next_run_at", "last_run_at", "total_run_count", "enabled", "approved_at"));
  const resultsOf = (id: string) => server.db("extras_jobresult").where("schedule_id", id).select("id", "user_id", "job_kwargs");
  const scheduledCount = async () => Number((await server.db("extras_scheduledjob").count({ n: "*" }))[0].n);
  const tagCount = async (name: string) => Number((await server.db("extras_tag").where("name", name).count({ n: "*" }))[0].n);
  const startWorker = () => {
    const handler = jobHandler({ apis, engineOf: enginesOn(server.db), roots: server.jobsRoots, logs: server.engine === "pglite" ? "inTransaction" : "apart" });
    workers.push(new Worker(server.db, { [JOB_TASK]: handler }, { pollMs: 50 }, (err) => errors.push(err)).start());
  };
  /** A scheduler as another instance would run it: on PostgreSQL over a pool of its own; the embedded database has one connection, shared. */
  const secondScheduler = async () => {
    if (server.engine === "postgresql") second ??= await queueDatabase();
    const otherDb = second?.knex ?? server.db;
    return { other: new Schedules(enginesOn(otherDb)(apis.find((a) => a.name === "inventory")!)), otherDb };
  };
  const ended = (id: string) => waitFor(`job result ${id} to end`, async () => {
    const r = await get(`/api/extras/job-results/${id}/`);
    return ["completed", "errored", "failed"].includes(r.body.status?.value) ? r.body : undefined;
  }, 120_000);
  /** A schedule of TagWriter made through the API; gives the answer's scheduled job. */
  const schedule = async (sched: Record<string, unknown>, name = uniq("sched-tag"), opts: Parameters<typeof post>[2] = V13) => {
    const res = await run("TagWriter", { data: { name }, schedule: sched }, opts);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.job_result).to.equal(null);
    return res.body.schedule as Record<string, any>;
  };

  before(async () => {
    server = await startTestServer();
    schedules = new Schedules(enginesOn(server.db)(apis.find((a) => a.name === "inventory")!));
    const listed = (await get(`${JOBS}?limit=0`, V13)).body.results as Array<{ id: string; slug: string; job_class_name: string }>;
    for (const j of listed) jobs.set(j.job_class_name, j);
    for (const name of ["TagWriter", "EveryVariable", "FailureLogger"]) expect((await patch(`${JOBS}${job(name).id}/`, { enabled: true }, V13)).status).to.equal(200);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(errors.splice(0), "worker errors").to.deep.equal([]);
  });
  after(async () => {
    await patch(`${JOBS}${job("TagWriter").id}/`, { approval_required: false, approval_required_override: false }, V13);
    // Runs fired here that no worker took: no later test's worker should meet them.
    await server.db("armature_tasks").where({ kind: JOB_TASK, state: "queued" }).del();
    await server.db("extras_scheduledjob").del();
    await second?.close();
  });

  describe("schedules in a run's body", () => {
    it("each kind is answered with its scheduled job and no result, and knows when it fires first", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ interval: "future", start_time: START }, "2030-01-07T10:15:30.000Z"],
        [{ interval: "hourly", start_time: START }, "2030-01-07T10:15:30.000Z"],
        [{ interval: "daily", start_time: "2030-01-07T10:15:00Z" }, "2030-01-07T10:15:00.000Z"],
        [{ interval: "weekly", start_time: "2030-01-07T12:15:00+02:00" }, "2030-01-07T10:15:00.000Z"],
        [{ interval: "custom", start_time: START, crontab: "0 */6 * * mon-fri" }, "2030-01-07T12:00:00.000Z"],
        [{ interval: "custom", start_time: START, crontab: "30 9 1 * *" }, "2030-02-01T09:30:00.000Z"],
        // A range that wraps past Saturday, names of months, and Celery's rule that the day of
        // the month and the day of the week must both match (a Friday the 13th).
        [{ interval: "custom", start_time: START, crontab: "0 9 * * fri-mon" }, "2030-01-11T09:00:00.000Z"],
        [{ interval: "custom", start_time: START, crontab: "0 0 1 jul *" }, "2030-07-01T00:00:00.000Z"],
        [{ interval: "custom", start_time: START, crontab: "0 0 13 * fri" }, "2030-09-13T00:00:00.000Z"],
        [{ interval: "custom", start_time: START, crontab: "15-20/5,45 22 * * *" }, "2030-01-07T22:15:00.000Z"],
      ];
      for (const [sched, first] of cases) {
        const name = uniq(`every-${sched.interval}`);
        const shown = await schedule({ ...sched, name });
        expect(Object.keys(shown).sort(), name).to.deep.equal(NESTED);
        expect(shown).to.deep.include({ name, interval: sched.interval, crontab: sched.crontab ?? "", display: `${name}: ${sched.interval}` });
        expect(at(shown.start_time).getTime()).to.equal(at(sched.start_time as string).getTime());
        expect(shown.url).to.equal(`${server.url}${SCHEDULED}${shown.id}/`);
        expect((await row(shown.id)).next_run_at!.toISOString(), name).to.equal(first);
      }
      // A custom schedule given no start begins 20 seconds after the request, as Nautobot's.
      const asked = Date.now();
      const noStart = await schedule({ interval: "custom", name: uniq("no-start"), crontab: "* * * * *" });
      const answered = Date.now();
      const next = (await row(noStart.id)).next_run_at!.getTime();
      expect(next).to.be.at.least(asked + 20_000).and.at.most(answered + 20_000);
    });

    it("the scheduled job in full, as ScheduledJobSerializer shows it", async () => {
      const name = uniq("full");
      const shown = await schedule({ interval: "daily", name, start_time: START });
      const full = (await get(`${SCHEDULED}${shown.id}/`)).body;
      expect(Object.keys(full).sort()).to.deep.equal(FULL);
      expect(full).to.deep.include({
        name, interval: "daily", crontab: "", task: "nautobot.extras.jobs.scheduled_job_handler", job_class: "local/api_test_jobs/TagWriter",
        queue: null, last_run_at: null, total_run_count: 0, approval_required: false, approved_at: null, approved_by_user: null,
        description: `Nautobot job ${name} scheduled by admin on 2030-01-07 10:15:30+00:00`,
      });
      expect(full.user.username).to.equal("admin");
      expect(full.job_model.id).to.equal(job("TagWriter").id);
      const brief = (await get(`${SCHEDULED}${shown.id}/?brief=1`)).body;
      expect(Object.keys(brief).sort()).to.deep.equal(NESTED);
      // Read only but for its actions.
      expect((await patch(`${SCHEDULED}${shown.id}/`, { name: "x" })).status).to.equal(405);
      expect((await post(SCHEDULED, { name: "x" })).status).to.equal(405);
    });

    it("API 1.2's class-path run takes a schedule too: the job class, with no result", async () => {
      const before = await scheduledCount();
      const res = await post(`${JOBS}local/api_test_jobs/TagWriter/run/`, { data: { name: uniq("legacy") }, schedule: { interval: "hourly", name: uniq("legacy"), start_time: START } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ id: "local/api_test_jobs/TagWriter", result: null });
      expect(await scheduledCount()).to.equal(before + 1);
    });

    it("a bad schedule is refused with Nautobot's words, and nothing is scheduled", async () => {
      const START_MESSAGE = "Please enter a valid date and time greater than or equal to the current date and time.";
      const past = new Date(Date.now() - 60_000).toISOString();
      const cases: Array<[unknown, unknown]> = [
        [{ interval: "yearly", name: "x", start_time: START }, { interval: ['"yearly" is not a valid choice.'] }],
        [{ name: "x" }, { interval: ["This field is required."] }],
        ["soon", { non_field_errors: ["Invalid data. Expected a dictionary, but got str."] }],
        [null, ["This field may not be null."]],
        [{ interval: "future", start_time: START }, { name: ["Please provide a name for the job schedule."] }],
        [{ interval: "future", name: "" , start_time: START }, { name: ["This field may not be blank."] }],
        [{ interval: "future", name: "x".repeat(256), start_time: START }, { name: ["Ensure this field has no more than 255 characters."] }],
        [{ interval: "hourly", name: "x" }, { start_time: [START_MESSAGE] }],
        [{ interval: "daily", name: "x", start_time: past }, { start_time: [START_MESSAGE] }],
        [{ interval: "weekly", name: "x", start_time: "next monday" }, { start_time: ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."] }],
        [{ interval: "custom", name: "x" }, { crontab: ["Please enter a valid crontab."] }],
        [{ interval: "custom", name: "x", crontab: "* * *" }, { crontab: ["not enough values to unpack (expected 5, got 3)"] }],
        [{ interval: "custom", name: "x", crontab: "" }, { crontab: ["not enough values to unpack (expected 5, got 1)"] }],
        [{ interval: "custom", name: "x", crontab: "* * * * * *" }, { crontab: ["too many values to unpack (expected 5)"] }],
        [{ interval: "custom", name: "x", crontab: "60 * * * *" }, { crontab: ["Invalid end range: 60 must be 59 or smaller."] }],
        [{ interval: "custom", name: "x", crontab: "0 0 0 * *" }, { crontab: ["Invalid beginning range: 0 must be 1 or greater."] }],
        [{ interval: "custom", name: "x", crontab: "*/0 * * * *" }, { crontab: ["slice step cannot be zero"] }],
        [{ interval: "custom", name: "x", crontab: "0 0 * * funday" }, { crontab: ["Invalid weekday literal 'funday'."] }],
        [{ interval: "custom", name: "x", crontab: "1,,2 * * * *" }, { crontab: ["empty part"] }],
        [{ interval: "custom", name: "x", crontab: "1-5/ * * * *" }, { crontab: ["empty filter"] }],
        [{ interval: "custom", name: "x", crontab: "-5 * * * *" }, { crontab: ["negative numbers not supported"] }],
        [{ interval: "custom", name: "x", crontab: "*/x * * * *" }, { crontab: ["invalid literal for int() with base 10: 'x'"] }],
        [{ interval: "custom", name: "x", crontab: "0 24 * * *" }, { crontab: ["Invalid end range: 24 must be 23 or smaller."] }],
        [{ interval: "custom", name: "x", crontab: "0 0 * 13 *" }, { crontab: ["Invalid end range: 13 must be 12 or smaller."] }],
        [{ interval: "custom", name: "x", crontab: "0 0 * * 7" }, { crontab: ["Invalid end range: 7 must be 6 or smaller."] }],
        [{ interval: "custom", name: "x", crontab: ["* * * * *"] }, { crontab: ["Not a valid string."] }],
        [{ interval: 5, name: "x", start_time: START }, { interval: ['"5" is not a valid choice.'] }],
        [{ interval: "daily", name: "x", start_time: 1893456000 }, { start_time: ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."] }],
        [{ interval: "daily", name: "x", start_time: "2030-02-30T10:00:00Z" }, { start_time: ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."] }],
      ];
      const before = await scheduledCount();
      for (const [sched, errs] of cases) {
        const res = await run("TagWriter", { data: { name: "x" }, schedule: sched });
        expect(res.status, JSON.stringify(sched)).to.equal(400);
        expect(res.body, JSON.stringify(sched)).to.deep.equal({ schedule: errs });
      }
      // A job that may have sensitive variables runs only at once.
      const sensitive = await run("FailureLogger", { data: {}, schedule: { interval: "hourly", name: "x", start_time: START } });
      expect(sensitive.status).to.equal(400);
      expect(sensitive.body).to.deep.equal({ schedule: { interval: ["Unable to schedule job: Job may have sensitive input variables"] } });
      // An empty schedule is none to Nautobot's check (Python's truth), and then lacks its interval.
      const empty = await run("FailureLogger", { data: {}, schedule: {} });
      expect(empty.status).to.equal(400);
      expect(empty.body).to.deep.equal({ schedule: { interval: ["This field is required."] } });
      expect(await scheduledCount()).to.equal(before);
      // `immediately` runs at once, as with no schedule.
      const now = await run("TagWriter", { data: { name: uniq("now") }, schedule: { interval: "immediately" } });
      expect(now.status).to.equal(201);
      expect(now.body.schedule).to.equal(null);
      expect(now.body.job_result.status.value).to.equal("pending");
      expect(await scheduledCount()).to.equal(before);
    });
  });

  describe("the scheduler", () => {
    it("fires a due schedule once, though two schedulers race for it, and moves each kind's next run on", async () => {
      const made = new Map<string, string>();
      for (const [interval, extra] of [["future", {}], ["hourly", {}], ["daily", {}], ["weekly", {}], ["custom", { crontab: "0 */6 * * mon-fri" }]] as const) {
        made.set(interval, (await schedule({ interval, name: uniq(`race-${interval}`), start_time: START, ...extra })).id);
      }
      // Not due yet: none of them fires.
      await schedules.fireDue(server.db, at("2030-01-07T10:15:29Z"));
      for (const id of made.values()) expect(await resultsOf(id)).to.have.length(0);
      const { other, otherDb } = await secondScheduler();
      const due = at("2030-01-07T12:00:00Z");
      const [a, b] = await Promise.all([schedules.fireDue(server.db, due), other.fireDue(otherDb, due)]);
      const fired = [...a.results, ...b.results];
      const ours = new Set<string>();
      for (const id of made.values()) {
        const results = await resultsOf(id);
        expect(results, `results of ${id}`).to.have.length(1);
        ours.add(results[0].id);
        expect((await row(id)).total_run_count).to.equal(1);
        expect((await row(id)).last_run_at!.toISOString()).to.equal(due.toISOString());
      }
      expect(fired.filter((r) => ours.has(r))).to.have.length(made.size);
      const next = async (interval: string) => (await row(made.get(interval)!)).next_run_at?.toISOString() ?? null;
      expect(await next("future")).to.equal(null);
      expect((await row(made.get("future")!)).enabled).to.equal(false);
      expect(await next("hourly")).to.equal("2030-01-07T12:15:00.000Z");
      expect(await next("daily")).to.equal("2030-01-08T10:15:00.000Z");
      expect(await next("weekly")).to.equal("2030-01-14T10:15:00.000Z");
      expect(await next("custom")).to.equal("2030-01-07T18:00:00.000Z");
      // The same time again fires nothing more.
      const again = await Promise.all([schedules.fireDue(server.db, due), other.fireDue(otherDb, due)]);
      expect(again.flatMap((x) => x.results).filter((r) => !ours.has(r))).to.have.length(0);
      for (const id of made.values()) expect(await resultsOf(id)).to.have.length(1);
      // Hours missed fire once, and the next run is the first after the time it fired.
      await schedules.fireDue(server.db, at("2030-01-07T16:40:00Z"));
      expect(await resultsOf(made.get("hourly")!)).to.have.length(2);
      expect(await next("hourly")).to.equal("2030-01-07T17:15:00.000Z");
      // Each run fired is a run of TagWriter as the schedule's requester, with its data, and a worker runs it.
      const result = (await resultsOf(made.get("daily")!))[0];
      startWorker();
      const ran = await ended(result.id);
      expect(ran.status.value).to.equal("completed");
      expect(ran.user.username).to.equal("admin");
      expect(ran.schedule).to.deep.include({ id: made.get("daily"), interval: "daily" });
      expect(Object.keys(ran.schedule).sort()).to.deep.equal(NESTED);
      expect(await tagCount(ran.job_kwargs.data.name)).to.equal(1);
      const daily = (await get(`${SCHEDULED}${made.get("daily")}/`)).body;
      expect(daily.total_run_count).to.equal(1);
      expect(at(daily.last_run_at).getTime()).to.equal(due.getTime());
    });

    it("every queue worker runs the scheduler: a schedule due now fires and its run runs", async () => {
      const name = uniq("worker-fired");
      const shown = await schedule({ interval: "hourly", name: uniq("worker-fired"), start_time: START }, name);
      // Due a second ago by the real clock: what the worker's scheduler reads.
      await server.db("extras_scheduledjob").where("id", shown.id).update({ next_run_at: new Date(Date.now() - 1000) });
      const setting = { config: { ...configFromEnv(), jobsRoots: server.jobsRoots }, apis, engineOf: enginesOn(server.db) };
      // The process's own periodic tasks and job handler; not its webhook handler, which would first
      // try to deliver the hundreds of webhooks other files left queued on this shared database.
      const handlers = { [JOB_TASK]: taskHandlers(setting)[JOB_TASK] };
      workers.push(new Worker(server.db, handlers, { pollMs: 50 }, (err) => errors.push(err), periodicTasks(setting)).start());
      const [result] = await waitFor("the schedule to fire", async () => {
        const found = await resultsOf(shown.id);
        return found.length ? found : undefined;
      });
      expect((await ended(result.id)).status.value).to.equal("completed");
      expect(await tagCount(name)).to.equal(1);
      expect(await resultsOf(shown.id)).to.have.length(1);
      expect((await row(shown.id)).next_run_at!.getTime()).to.be.greaterThan(Date.now());
    });

    it("a run of many schedules due at once fires each once", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await schedule({ interval: "future", name: uniq(`many-${i}`), start_time: "2031-03-01T00:00:00Z" })).id);
      const { other, otherDb } = await secondScheduler();
      const due = at("2031-03-01T00:00:00Z");
      // Rounds of four schedulers taking five at a time, until none finds any due.
      for (;;) {
        const rounds = await Promise.all([schedules.fireDue(server.db, due, 5), other.fireDue(otherDb, due, 5), schedules.fireDue(server.db, due, 5), other.fireDue(otherDb, due, 5)]);
        if (rounds.every((r) => r.fired === 0)) break;
      }
      for (const id of ids) expect(await resultsOf(id), id).to.have.length(1);
    });
  });

  describe("approval", () => {
    let requester: { key: string; id: string };
    let approver: { key: string; id: string };
    let changeOnly: { key: string; id: string };
    let viewer: { key: string; id: string };

    before(async () => {
      const res = await patch(`${JOBS}${job("TagWriter").id}/`, { approval_required: true, approval_required_override: true }, V13);
      expect(res.status, res.text).to.equal(200);
      // TagWriter writes a tag as whoever runs it.
      const runJobs = { object_types: ["extras.job", "extras.tag"], actions: ["view", "run", "add"] };
      requester = await server.user(uniq("requester"), { grants: [runJobs, { object_types: ["extras.scheduledjob"], actions: ["view", "change", "delete"] }, { object_types: ["extras.job"], actions: ["approve"] }] });
      approver = await server.user(uniq("approver"), { grants: [runJobs, { object_types: ["extras.scheduledjob"], actions: ["view", "change", "delete"] }, { object_types: ["extras.job"], actions: ["approve"] }] });
      changeOnly = await server.user(uniq("change-only"), { grants: [{ object_types: ["extras.scheduledjob"], actions: ["view", "change", "delete"] }] });
      viewer = await server.user(uniq("sched-viewer"), { grants: [{ object_types: ["extras.scheduledjob"], actions: ["view"] }] });
    });

    it("a run of a job that needs approval waits for it; its requester cannot approve it; another user with the permissions does", async () => {
      const name = uniq("approved");
      const res = await run("TagWriter", { data: { name } }, { ...V13, token: requester.key });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.job_result).to.equal(null);
      const shown = res.body.schedule;
      expect(shown.interval).to.equal("immediately");
      expect(shown.name).to.match(/^Tag writer - \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
      const full = (await get(`${SCHEDULED}${shown.id}/`)).body;
      expect(full).to.deep.include({ approval_required: true, approved_at: null, approved_by_user: null });
      // Unapproved, it never fires.
      await schedules.fireDue(server.db, at("2040-01-01T00:00:00Z"));
      expect(await resultsOf(shown.id)).to.have.length(0);

      const approve = (token: string, query = "") => post(`${SCHEDULED}${shown.id}/approve/${query}`, undefined, { token });
      const own = await approve(requester.key);
      expect(own.status).to.equal(403);
      expect(own.body).to.equal("You cannot approve your own job request!");
      const noChange = await approve(viewer.key);
      expect(noChange.status).to.equal(403);
      expect(noChange.body).to.deep.equal({ detail: "You do not have permission to perform this action." });
      const noApprove = await approve(changeOnly.key);
      expect(noApprove.status).to.equal(403);
      expect(noApprove.body).to.deep.equal({ detail: "You do not have permission to approve this request." });
      expect((await row(shown.id)).approved_at).to.equal(null);

      const ok = await approve(approver.key);
      expect(ok.status, ok.text).to.equal(200);
      expect(Object.keys(ok.body).sort()).to.deep.equal(FULL);
      expect(ok.body.approved_by_user.id).to.equal(approver.id);
      expect(ok.body.approved_at).to.be.a("string");
      // Approved, it fires at the scheduler's next round, as its requester.
      const { results } = await schedules.fireDue(server.db, new Date());
      const [result] = await resultsOf(shown.id);
      expect(results).to.include(result.id);
      expect(result.user_id).to.equal(requester.id);
      startWorker();
      expect((await ended(result.id)).status.value).to.equal("completed");
      expect(await tagCount(name)).to.equal(1);
      expect((await row(shown.id)).next_run_at).to.equal(null);
    });

    it("a one-off whose start has passed is approved only with force", async () => {
      const shown = await schedule({ interval: "future", name: uniq("late"), start_time: START }, uniq("late"), { ...V13, token: requester.key });
      await server.db("extras_scheduledjob").where("id", shown.id).update({ start_time: new Date(Date.now() - 3_600_000) });
      const late = await post(`${SCHEDULED}${shown.id}/approve/`, undefined, { token: approver.key });
      expect(late.status).to.equal(400);
      expect(late.body).to.equal("The job's start time is in the past. If you want to force a run anyway, add the `force` query parameter.");
      expect((await post(`${SCHEDULED}${shown.id}/approve/?force=true`, undefined, { token: approver.key })).status).to.equal(200);
      expect((await row(shown.id)).approved_at).to.be.an.instanceOf(Date);
    });

    it("deny deletes the scheduled job, for those who may approve its job", async () => {
      const shown = await schedule({ interval: "daily", name: uniq("denied"), start_time: START }, uniq("denied"), { ...V13, token: requester.key });
      const noDelete = await post(`${SCHEDULED}${shown.id}/deny/`, undefined, { token: viewer.key });
      expect(noDelete.status).to.equal(403);
      const noApprove = await post(`${SCHEDULED}${shown.id}/deny/`, undefined, { token: changeOnly.key });
      expect(noApprove.status).to.equal(403);
      expect(noApprove.body).to.deep.equal({ detail: "You do not have permission to deny this request." });
      expect(await row(shown.id)).to.not.equal(undefined);
      const ok = await post(`${SCHEDULED}${shown.id}/deny/`, undefined, { token: approver.key });
      expect(ok.status).to.equal(200);
      expect(ok.text).to.equal("");
      expect(await row(shown.id)).to.equal(undefined);
      expect((await get(`${SCHEDULED}${shown.id}/`)).status).to.equal(404);
      expect((await get(`${SCHEDULED}${shown.id}/deny/`)).status).to.equal(405);
    });

    it("dry-run runs the job now with the schedule's data, committing nothing, as whoever asks", async () => {
      const name = uniq("dry");
      const shown = await schedule({ interval: "weekly", name: uniq("dry"), start_time: START }, name, { ...V13, token: requester.key });
      const refused = await post(`${SCHEDULED}${shown.id}/dry-run/`, undefined, { token: changeOnly.key });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ detail: "You do not have permission to run this job." });
      const res = await post(`${SCHEDULED}${shown.id}/dry-run/`, undefined, { token: approver.key });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.status.value).to.equal("pending");
      expect(res.body.user.id).to.equal(approver.id);
      expect(res.body.schedule).to.equal(null);
      expect(res.body.job_kwargs).to.deep.equal({ data: { name, fail: false }, commit: false, task_queue: null });
      startWorker();
      expect((await ended(res.body.id)).status.value).to.equal("completed");
      expect(await tagCount(name)).to.equal(0);
      // The scheduled job still waits for approval.
      expect((await row(shown.id)).approved_at).to.equal(null);
      await patch(`${JOBS}${job("TagWriter").id}/`, { enabled: false }, V13);
      const disabled = await post(`${SCHEDULED}${shown.id}/dry-run/`, undefined, { token: approver.key });
      await patch(`${JOBS}${job("TagWriter").id}/`, { enabled: true }, V13);
      expect(disabled.status).to.equal(405);
      expect(disabled.body).to.deep.equal({ detail: 'Method "This job cannot be dry-run at this time." not allowed.' });
    });
  });

  describe("filters", () => {
    it("by id, name, job, run count, first and last run, and q", async () => {
      await patch(`${JOBS}${job("TagWriter").id}/`, { approval_required: false, approval_required_override: false }, V13);
      const name = uniq("filtered");
      const shown = await schedule({ interval: "hourly", name, start_time: "2032-05-05T05:05:00Z" });
      await schedules.fireDue(server.db, at("2032-05-05T05:05:00Z"));
      const ids = async (query: string) => {
        const res = await get(`${SCHEDULED}?limit=0&${query}`);
        expect(res.status, `${query}: ${res.text}`).to.equal(200);
        return (res.body.results as Array<{ id: string }>).map((r) => r.id);
      };
      expect(await ids(`name=${name}`)).to.deep.equal([shown.id]);
      expect(await ids(`id=${shown.id}`)).to.deep.equal([shown.id]);
      expect(await ids(`q=${name.toUpperCase()}`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&job_model=${job("TagWriter").slug}`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&job_model_id=${job("TagWriter").id}`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&job_model=${job("EveryVariable").slug}`)).to.deep.equal([]);
      expect(await ids(`name=${name}&total_run_count=1`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&total_run_count=0`)).to.deep.equal([]);
      expect(await ids(`first_run=2032-05-05T05:05:00Z`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&last_run=2032-05-05T05:05:00Z`)).to.deep.equal([shown.id]);
      expect(await ids(`name=${name}&last_run=2032-05-05T06:05:00Z`)).to.deep.equal([]);
      const brief = await get(`${SCHEDULED}?name=${name}&brief=1`);
      expect(Object.keys(brief.body.results[0]).sort()).to.deep.equal(NESTED);
      const bad = await get(`${SCHEDULED}?interval=hourly`);
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ interval: ["Unknown filter field"] });
    });
  });
});
