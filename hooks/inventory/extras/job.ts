// Nautobot's JobViewSet beyond the model's own routes: API 1.2's list of job classes and its
// class-path routes (detail and run), a job's variables, and its run (lib/job-runs.ts checks
// the request as Nautobot does, then the run is queued or scheduled); and JobSerializer.validate's rule
// that a job with sensitive variables cannot need approval.
import { notFound, Refusal, type ActionEvent, type SaveEvent, classPathOf, JobRecords, type JobRow } from "../../../runtime/hooks.js";
import { jobByClassPath, jobClasses } from "../lib/job-classes.js";
import { describe as describeVariable } from "../lib/job-data.js";
import { requestRun } from "../lib/job-runs.js";
import { runBodyOfForm } from "../lib/job-multipart.js";
import type { ExtrasJob } from "../../../generated/inventory/rows.js";

const SENSITIVE_APPROVAL = "A job with sensitive variables cannot also be marked as requiring approval";

export function beforeSave({ values, after }: SaveEvent<ExtrasJob>): void {
  if (!after.approval_required || !after.has_sensitive_variables) return;
  const sent = (["approval_required", "has_sensitive_variables"] as const).filter((f) => f in values);
  // Neither sent: Nautobot's Job.clean refuses the stored pair.
  if (!sent.length) throw new Refusal({ approval_required: "A job that may have sensitive variables cannot be marked as requiring approval" });
  throw new Refusal(Object.fromEntries(sent.map((f) => [f, SENSITIVE_APPROVAL])));
}

/** The job the route names (the profile found it, and the requester may reach it). */
async function addressed(e: ActionEvent): Promise<JobRow> {
  const job = await new JobRecords(e.engine.index).job(e.db, e.id!);
  if (!job) throw notFound();
  return job;
}

/** A run's body: the JSON one, or what a multipart/form-data one says (job-multipart.ts). */
const runBody = (e: ActionEvent): unknown => (e.form ? runBodyOfForm(e.form) : e.body);

export const actions = {
  async "job-classes"(e: ActionEvent): Promise<unknown> {
    const jobs = await new JobRecords(e.engine.index).list(e.db, e.permitted(e.model, "view", "t0"));
    return jobClasses(e, jobs.filter((j) => j.installed), "nested");
  },

  async "class-detail"(e: ActionEvent): Promise<unknown> {
    const job = await jobByClassPath(e, "view");
    if (!job) throw notFound();
    return (await jobClasses(e, [job], "full"))[0];
  },

  async "class-run"(e: ActionEvent): Promise<unknown> {
    const job = await jobByClassPath(e, "run");
    if (!job) throw notFound();
    const run = await requestRun(e.engine, e.actor, job, runBody(e));
    // A scheduled run has no result yet: the job class shows none.
    return (await jobClasses(e, [job], "full", new Map("result" in run ? [[classPathOf(job), run.result]] : [])))[0];
  },

  async variables(e: ActionEvent): Promise<unknown> {
    return (await addressed(e)).variables.map(describeVariable);
  },

  async run(e: ActionEvent): Promise<unknown> {
    const run = await requestRun(e.engine, e.actor, await addressed(e), runBody(e));
    if ("schedule" in run) return { schedule: (await e.read([{ model: "extras.scheduledjob", id: run.schedule }], "nested"))[0], job_result: null };
    return { schedule: null, job_result: (await e.read([{ model: "extras.jobresult", id: run.result }], "nested"))[0] };
  },
};
