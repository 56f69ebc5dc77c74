// A run put on the queue: its pending result and its task, written in one operation of the
// requester's, so a run exists only if both do. What may be run, and with what data, the API's
// side decides before (the inventory's Job hook words Nautobot's checks).
import type { Engine } from "../../engine.js";
import type { Actor } from "../../operations/index.js";
import { enqueue } from "../../queue/tasks.js";
import { JobRecords, type JobRow } from "./records.js";

/** The queue task kind of a job run. */
export const JOB_TASK = "job";

/**
 * What a job task carries: the run's API and result, its data (objects by id) and whether it
 * commits; `system`: the run is the system's, a job hook of a change no user made.
 */
export interface JobTask { api: string; result: string; data: Record<string, unknown>; commit: boolean; system?: true }

/**
 * Records a pending result of `job` for `actor` (its `job_kwargs` as given: null keeps none)
 * and queues it for a worker, in one operation; gives the result's id.
 */
export function queueRun(engine: Engine, actor: Actor, job: JobRow, run: { data: Record<string, unknown>; commit: boolean; kwargs: Record<string, unknown> | null }): Promise<string> {
  const records = new JobRecords(engine.index);
  return engine.operations.run(actor, async ({ trx }) => {
    const result = await records.createResult(trx, job, actor.userId, run.kwargs);
    await enqueue(trx, JOB_TASK, { api: engine.api.name, result, data: run.data, commit: run.commit } satisfies JobTask);
    return result;
  });
}
