// Nautobot's ScheduledJobViewSet actions on a scheduled job awaiting approval: `approve` (by
// someone allowed to approve its job, never its requester; a one-off whose start has passed
// only with `force`), `deny` (deletes it) and `dry-run` (runs its job now with its data and
// commit false, as the requester of the dry run). The scheduler fires it once approved.
import type { Knex } from "knex";
import { Answer, HttpError, notFound, type ActionEvent, JobRecords, queueRun, Schedules, type JobRow } from "../../../runtime/hooks.js";

/** The scheduled job the route names (the profile found it, and the requester may reach it). */
async function addressed(e: ActionEvent): Promise<{ schedules: Schedules; row: NonNullable<Awaited<ReturnType<Schedules["get"]>>> }> {
  const schedules = new Schedules(e.engine);
  const row = await schedules.get(e.db, e.id!);
  if (!row) throw notFound();
  return { schedules, row };
}

/** Whether the requester may `action` the job record `id` (Nautobot's Job.objects.check_perms); with no record, whether they may on any. */
async function mayOnJob(e: ActionEvent, records: JobRecords, id: string | null, action: string): Promise<JobRow | null | false> {
  const where = e.permitted(records.jobs, action, "t0");
  if (id === null) return where?.sql === "false" ? false : null;
  const job = await records.job(e.db, id, where as { sql: string; bindings: Knex.RawBinding[] } | null);
  return job ?? false;
}

export const actions = {
  async approve(e: ActionEvent): Promise<unknown> {
    const { schedules, row } = await addressed(e);
    if ((await mayOnJob(e, schedules.records, row.job_model, "approve")) === false) throw new HttpError(403, "You do not have permission to approve this request.", "permission_denied");
    if (e.actor.userId === row.user) throw new Answer(403, "You cannot approve your own job request!");
    const now = new Date();
    // Django reads any value given as `force` as a request to force, even "false".
    if (row.one_off && row.start_time < now && !e.params.get("force")?.at(-1)) {
      throw new Answer(400, "The job's start time is in the past. If you want to force a run anyway, add the `force` query parameter.");
    }
    await schedules.approve(e.db, row.id, e.actor.userId!, now);
    return (await e.read([{ model: e.model.key, id: row.id }], "full"))[0];
  },

  async deny(e: ActionEvent): Promise<unknown> {
    const { schedules, row } = await addressed(e);
    if ((await mayOnJob(e, schedules.records, row.job_model, "approve")) === false) throw new HttpError(403, "You do not have permission to deny this request.", "permission_denied");
    await e.db(schedules.model.table).where("id", row.id).del();
    return undefined;
  },

  async "dry-run"(e: ActionEvent): Promise<unknown> {
    const { schedules, row } = await addressed(e);
    const job = row.job_model ? await schedules.records.job(e.db, row.job_model) : null;
    // DRF's MethodNotAllowed given the message as its method, as Nautobot raises it.
    if (!job || !job.enabled || !job.installed) throw new HttpError(405, 'Method "This job cannot be dry-run at this time." not allowed.', "method_not_allowed");
    if (!(await mayOnJob(e, schedules.records, job.id, "run"))) throw new HttpError(403, "You do not have permission to run this job.", "permission_denied");
    const data = row.kwargs.data ?? {};
    const kwargs = job.has_sensitive_variables ? null : { data, commit: false, task_queue: row.kwargs.task_queue ?? null };
    const result = await queueRun(e.engine, e.actor, job, { data, commit: false, kwargs });
    return (await e.read([{ model: "extras.jobresult", id: result }], "full"))[0];
  },
};
