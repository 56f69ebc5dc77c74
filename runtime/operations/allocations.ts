// Actions that create objects in room a hook finds (Nautobot's available-ips and
// available-prefixes): the hook, holding the action's lock, says what to create, and the
// objects are created as a POST to their list would create them, in one transaction with what
// the hook read, so parallel requests never take the same room. Parallel requests share that
// transaction: one lock and one search for room serve many of them, where one lock per
// request would make each wait for all the searches before it.
import type { ModelDescriptor } from "../descriptor.js";
import type { ActionEvent } from "../hook-events.js";
import { advisoryLock } from "../db/locks.js";
import { Batches, type Outcome } from "../batches.js";
import type { Store, WriteOptions } from "../store.js";
import type { Actor, Operations } from "./index.js";

/** One request's allocation: its items, and how its objects are created. */
export interface AllocationRequest {
  actor: Actor;
  /** The model whose action it is, the action, and the model of the objects it creates. */
  m: ModelDescriptor;
  name: string;
  made: ModelDescriptor;
  event: Omit<ActionEvent, "db">;
  items: Array<Record<string, unknown>>;
  many: boolean;
  opts: WriteOptions;
}

/** The ids made, or why there was no room (the hook's words). */
export type Allocated = { ids: string[] } | { shortage: string };

/** Requests one batch takes at most: a bound on how long its lock is held. */
const BATCH = 64;

export class Allocations {
  private readonly batches: Batches<AllocationRequest, Allocated>;

  constructor(private readonly operations: Operations, private readonly store: Store) {
    this.batches = new Batches((jobs) => this.run(jobs), BATCH);
  }

  /** Allocates for one request, in a batch with the requests of the same action waiting with it. */
  allocate(request: AllocationRequest): Promise<Allocated> {
    return this.batches.submit(`${request.m.table}\0${request.name}`, request);
  }

  /**
   * One batch: one operation and one lock for all of it (the lock is the action's, not the
   * object's: objects may share room, as a prefix shares its child's), each request in a
   * savepoint and as its own actor, so one that fails takes nothing from the others. Requests
   * on the same object run one after another and hand the hook's memo on; anything that fails
   * starts a fresh one, as what the hook remembered may be undone.
   */
  private async run(jobs: AllocationRequest[]): Promise<Array<Outcome<Allocated>>> {
    const { m, name, made } = jobs[0];
    const first = new Map<string | null, number>();
    jobs.forEach((j, i) => { if (!first.has(j.event.id)) first.set(j.event.id, i); });
    const order = [...jobs.keys()].sort((a, b) => first.get(jobs[a].event.id)! - first.get(jobs[b].event.id)! || a - b);
    const outcomes: Array<Outcome<Allocated>> = [];
    await this.operations.run(jobs[0].actor, async (op) => {
      await advisoryLock(op.trx, m.table, name);
      let memo: Record<string, unknown> = {};
      for (const [k, i] of order.entries()) {
        const { actor, event, items, many, opts } = jobs[i];
        if (k > 0 && jobs[order[k - 1]].event.id !== event.id) memo = {};
        const queued = order.slice(k).filter((j) => jobs[j].event.id === event.id).reduce((n, j) => n + jobs[j].items.length, 0);
        try {
          outcomes[i] = { value: await this.operations.savepoint(this.operations.acting(op, actor), async (sp): Promise<Allocated> => {
            const allocation = await m.hooks!.allocate![name]({ ...event, db: sp.trx, items, memo, queued });
            if ("shortage" in allocation) return allocation;
            const { create } = allocation;
            return { ids: many ? await this.store.createMany(sp, made, create, opts) : [await this.store.create(sp, made, create[0], opts)] };
          }) };
        } catch (error) {
          outcomes[i] = { error };
          memo = {};
        }
      }
    });
    return outcomes;
  }
}
