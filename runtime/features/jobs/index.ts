// Jobs (the api's `jobs` role): modules of the jobs folders run by queue workers, as the user
// who ran them, through the engine. The records of the folders' jobs are brought in step at
// start-up (`syncJobs`), a run is queued with its pending result (`queueRun`), and the
// feature's task runs it (`jobHandler`); every queue worker also fires the scheduled jobs that
// are due (schedules.ts). It lends the change log the lookup of the runs job hooks call for (hooks.ts).
// Which runs an API takes, and how it words its refusals, is the API's business (the
// inventory's Job and ScheduledJob hook modules).
import type { Knex } from "knex";
import type { ApiDescriptor } from "../../descriptor.js";
import { ModelIndex } from "../../models.js";
import type { Feature } from "../types.js";
import type { PeriodicTask, TaskHandler } from "../../queue/worker.js";
import { loadCatalog } from "./catalog.js";
import { JobRecords } from "./records.js";
import { jobHandler } from "./runner.js";
import { jobHooks } from "./hooks.js";
import { JOB_TASK } from "./runs.js";
import { Schedules } from "./schedules.js";

export { jobHandler, type JobRunnerOptions } from "./runner.js";
export { JOB_TASK, queueRun, type JobTask } from "./runs.js";
export { JobRecords, classPathOf, TERMINAL, type JobRow } from "./records.js";
export type { VariableRecord } from "./variables.js";
export { Schedules, INTERVALS, firstRun, nextRun, pyDateTime, type Interval, type ScheduleRow } from "./schedules.js";
export { CrontabError, parseCrontab } from "./crontab.js";

/** Schedules one scheduler fires in one transaction: more due wait for its next round, or another's. */
const FIRE_BATCH = 100;

/** Brings the job records of every API with jobs in step with the jobs folders; gives lines for the operator. */
export async function syncJobs(db: Knex, apis: ApiDescriptor[], roots: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const api of apis.filter((a) => a.jobs)) {
    const report = await new JobRecords(new ModelIndex(api)).sync(db, await loadCatalog(roots));
    if (report.created.length) lines.push(`jobs (${api.name}): new, disabled until enabled: ${report.created.join(", ")}`);
    if (report.uninstalled.length) lines.push(`jobs (${api.name}): no longer installed: ${report.uninstalled.join(", ")}`);
    lines.push(...report.problems);
  }
  return lines;
}

export const feature = {
  name: "jobs",
  services: (index) => ({ recorded: jobHooks(index) }),
  tasks: ({ config, apis, engineOf }): Record<string, TaskHandler> => (apis.some((a) => a.jobs)
    // The embedded database's one connection is the job's transaction's while it runs: its log goes there too.
    ? { [JOB_TASK]: jobHandler({ apis, engineOf, roots: config.jobsRoots, logs: config.databaseUrl ? "apart" : "inTransaction" }) }
    : {}),
  periodic: ({ apis, engineOf }): Record<string, PeriodicTask> => {
    const scheduled = apis.filter((a) => a.jobs?.schedules);
    if (!scheduled.length) return {};
    return {
      "job schedules": async (db) => {
        for (const api of scheduled) {
          const schedules = new Schedules(engineOf(api));
          while ((await schedules.fireDue(db, new Date(), FIRE_BATCH)).fired === FIRE_BATCH);
        }
      },
    };
  },
} satisfies Feature;
