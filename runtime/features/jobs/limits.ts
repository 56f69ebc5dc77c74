// A job's time limits, as Celery enforces Nautobot's: past its soft limit the job's next call
// on its context throws SoftTimeLimitExceeded, once (a job may catch it and end early, as a
// Celery task may); past its hard limit the run is given up at once, TimeLimitExceeded, and its writes
// rolled back with it. A limit of 0 is Nautobot's default (CELERY_TASK_SOFT_TIME_LIMIT,
// CELERY_TASK_TIME_LIMIT). The job's code cannot be stopped mid-statement: what it goes on to
// do fails, its context refusing every call.

/** Nautobot's CELERY_TASK_SOFT_TIME_LIMIT and CELERY_TASK_TIME_LIMIT, in seconds. */
export const DEFAULT_SOFT_LIMIT = 300;
export const DEFAULT_HARD_LIMIT = 600;

export class SoftTimeLimitExceeded extends Error {
  override name = "SoftTimeLimitExceeded";
}

export class TimeLimitExceeded extends Error {
  override name = "TimeLimitExceeded";
}

/** The seconds of a job record's limit: its own when above 0, else the default. */
const seconds = (limit: number | string | null | undefined, fallback: number) => (Number(limit) > 0 ? Number(limit) : fallback);

/**
 * `work` raced against the job's limits: `expire` is told of each limit passed (the context then
 * refuses its next call, or all of them, with it); past the hard one, the answer is a
 * TimeLimitExceeded rejection.
 */
export function withinLimits<T>(work: Promise<T>, limits: { soft_time_limit: number; time_limit: number }, expire: (err: Error, once: boolean) => void): Promise<T> {
  const soft = seconds(limits.soft_time_limit, DEFAULT_SOFT_LIMIT);
  const hard = seconds(limits.time_limit, DEFAULT_HARD_LIMIT);
  const timers: NodeJS.Timeout[] = [];
  const over = new Promise<never>((_, reject) => {
    if (soft < hard) timers.push(setTimeout(() => expire(new SoftTimeLimitExceeded(`The job ran past its soft time limit of ${soft} seconds.`), true), soft * 1000));
    timers.push(setTimeout(() => {
      const err = new TimeLimitExceeded(`The job ran past its time limit of ${hard} seconds and was stopped.`);
      expire(err, false);
      reject(err);
    }, hard * 1000));
  });
  return Promise.race([work, over]).finally(() => timers.forEach(clearTimeout));
}
