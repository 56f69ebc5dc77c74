// Work that is cheaper done together than one piece at a time: jobs submitted under one key
// while a batch of that key runs wait, and the next batch takes them all at once (up to a
// bound), in the order they came. A batch only takes jobs that were waiting when it started,
// so what it reads is never older than any of its jobs.

/** How one job of a batch ended: its value, or the error its caller meets. */
export type Outcome<R> = { value: R } | { error: unknown };

interface Waiting<J, R> { job: J; settle(outcome: Outcome<R>): void }

export class Batches<J, R> {
  private readonly waiting = new Map<string, Array<Waiting<J, R>>>();
  private readonly running = new Set<string>();

  /** `run` gives one outcome per job, in the jobs' order; when it fails, every job of the batch fails. */
  constructor(private readonly run: (jobs: J[]) => Promise<Array<Outcome<R>>>, private readonly max: number) {}

  submit(key: string, job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push({ job, settle: (o) => ("error" in o ? reject(o.error) : resolve(o.value)) });
      this.waiting.set(key, queue);
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    for (let queue = this.waiting.get(key); queue?.length; queue = this.waiting.get(key)) {
      const batch = queue.splice(0, this.max);
      if (!queue.length) this.waiting.delete(key);
      const outcomes = await this.run(batch.map((w) => w.job)).catch((error: unknown) => batch.map(() => ({ error })));
      batch.forEach((w, i) => w.settle(outcomes[i]));
    }
    this.running.delete(key);
  }
}
