// Actions that create objects in room a hook finds (Nautobot's available-ips and
// available-prefixes): the hook, holding the action's lock, says what to create, and the
// objects are created as a POST to their list would create them, in one transaction with what
// the hook read, so parallel requests never take the same room. Parallel requests share that
// transaction: one lock and one search for room serve many of them, where one lock per
// request would make each wait for all the searches before it; their objects are written as
// one set and read back for their answers in one statement. What a batch's hooks found is
// carried to the next batch of the action for a moment (AllocateEventBase.carried), so a burst
// of requests does not search for room once per batch.
import type { ModelDescriptor } from "../descriptor.js";
import { notFound } from "../errors.js";
import type { ActionEvent } from "../hook-events.js";
import { advisoryLock } from "../db/locks.js";
import { Batches, type Outcome } from "../batches.js";
import type { ReadOptions, Store, WriteOptions } from "../store.js";
import type { Actor, Operations, WriteOperation } from "./index.js";

/** One request's allocation: its items, how its objects are created, and how they are answered. */
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
  /** How the objects made are read back for the answer. */
  read: ReadOptions;
}

/** The objects made, as `read` shows them, or why there was no room (the hook's words). */
export type Allocated = { objects: Array<Record<string, unknown>> } | { shortage: string };

/** What one request came to inside the transaction: the ids made, or the shortage. */
type Made = { ids: string[] } | { shortage: string };

/** Requests one batch takes at most: a bound on how long its lock is held. */
const BATCH = 64;

/** What the hooks of a batch carry to the next, by object id. */
type Carried = Map<string | null, Record<string, unknown>>;

/**
 * How long what a batch carried stays for the next. Hooks check what they take from it against
 * the rows (another instance may have allocated meanwhile); what they cannot check is room
 * that grew below it: after an update or delete of the model made in this instance nothing
 * carried is taken, and another instance's show after this long.
 */
const CARRY_MS = 1000;

const batchKey = (request: AllocationRequest) => `${request.m.table}\0${request.name}`;

/** `items` in groups of equal keys, each group in the items' order. */
function groupBy<T>(items: T[], keyOf: (item: T) => unknown[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = JSON.stringify(keyOf(item));
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

export class Allocations {
  private readonly batches: Batches<AllocationRequest, Promise<Allocated>>;
  /** By batch key: what the last batch's hooks carried, when it ended and `freed` of its model as it began. */
  private readonly carried = new Map<string, { at: number; freed: number; objects: Carried }>();
  /** Updates and deletes seen, by model: what was carried across one of them is not taken. */
  private readonly freed = new Map<ModelDescriptor, number>();

  constructor(private readonly operations: Operations, private readonly store: Store) {
    this.batches = new Batches((jobs) => this.run(jobs), BATCH);
    // An update or delete may free room below what was carried: the next batch searches again.
    store.onWrite((m, change) => {
      if (change !== "create") this.freed.set(m, (this.freed.get(m) ?? 0) + 1);
    });
  }

  /** Allocates for one request, in a batch with the requests of the same action waiting with it. */
  async allocate(request: AllocationRequest): Promise<Allocated> {
    return await this.batches.submit(batchKey(request), request);
  }

  /**
   * One batch: one operation and one lock for all of it (the lock is the action's, not the
   * object's: objects may share room, as a prefix shares its child's), each request as its
   * own actor, so one that fails takes nothing from the others. Requests on the same object
   * run one after another and hand the hook's memo on. The objects of every request are first
   * tried as one set; when anything of it fails, that is undone and each request runs again
   * in a savepoint of its own, with a fresh memo, to find which ones fail. Only a batch that
   * went through as one set carries anything on. The answers are read once the batch has let
   * the next one go: the action's lock is held for the writes, and a batch waits for no read.
   */
  private async run(jobs: AllocationRequest[]): Promise<Array<Outcome<Promise<Allocated>>>> {
    const { m, name } = jobs[0];
    const key = batchKey(jobs[0]);
    const freed = this.freed.get(jobs[0].made) ?? 0;
    const kept = this.carried.get(key);
    this.carried.delete(key);
    const start: Carried = kept && kept.freed === freed && Date.now() - kept.at < CARRY_MS ? kept.objects : new Map();
    let carried: Carried = new Map();
    const first = new Map<string | null, number>();
    jobs.forEach((j, i) => { if (!first.has(j.event.id)) first.set(j.event.id, i); });
    const order = [...jobs.keys()].sort((a, b) => first.get(jobs[a].event.id)! - first.get(jobs[b].event.id)! || a - b);
    const made = await this.operations.run(jobs[0].actor, async (op) => {
      // Each attempt of the transaction from what was carried in: hooks replace what they carry, never change it.
      carried = new Map([...start].map(([id, c]) => [id, { ...c }]));
      await advisoryLock(op.trx, m.table, name);
      const gone = await this.unreachable(op, jobs);
      const left = order.filter((i) => !gone.has(i));
      const missing = (made: Array<Outcome<Made>>) => {
        for (const i of gone) made[i] = { error: notFound() };
        return made;
      };
      const together = await this.operations.savepoint(op, (sp) => this.together(sp, jobs, left, carried)).catch(() => undefined);
      if (together) return missing(together);
      carried = new Map();
      return missing(await this.oneByOne(op, jobs, left));
    });
    if (carried.size) this.carried.set(key, { at: Date.now(), freed, objects: carried });
    const answers = this.answers(jobs, made);
    return jobs.map((_, i) => {
      const answer = answers.then((all) => {
        const o = all[i];
        if ("error" in o) throw o.error;
        return o.value;
      });
      // Its caller takes it once the batch is over; a failure meanwhile is nobody's rejection.
      answer.catch(() => undefined);
      return { value: answer };
    });
  }

  /**
   * Room for each request in turn, and the objects of the requests on one object created as
   * one set once all of them found theirs (the memo tells each what those before it took), so
   * that requests on another object, whose room may overlap, see them. One set per version and
   * user: each is checked as that user's write.
   */
  private async together(op: WriteOperation, jobs: AllocationRequest[], order: number[], carried: Carried): Promise<Array<Outcome<Made>>> {
    const made: Array<Outcome<Made>> = [];
    let bodies: Array<{ i: number; create: Array<Record<string, unknown>> }> = [];
    let memo: Record<string, unknown> = {};
    for (const [k, i] of order.entries()) {
      const id = jobs[i].event.id;
      if (!carried.has(id)) carried.set(id, {});
      const allocation = await this.find(op, jobs, order, k, memo, carried.get(id)!);
      if ("shortage" in allocation) made[i] = { value: allocation };
      else bodies.push({ i, create: allocation.create });
      if (k + 1 < order.length && jobs[order[k + 1]].event.id === jobs[i].event.id) continue;
      for (const group of groupBy(bodies, (b) => [jobs[b.i].opts.version, jobs[b.i].actor.userId, jobs[b.i].actor.superuser ?? false])) {
        await this.createSet(op, jobs, group, made);
      }
      bodies = [];
      memo = {};
    }
    return made;
  }

  /** The objects of a group of requests as one set, each told to the features as its own request's. */
  private async createSet(op: WriteOperation, jobs: AllocationRequest[], group: Array<{ i: number; create: Array<Record<string, unknown>> }>,
    made: Array<Outcome<Made>>): Promise<void> {
    const mark = op.pending.length;
    const { actor, made: model, opts } = jobs[group[0].i];
    const ids = await this.store.createMany(this.operations.acting(op, actor), model, group.flatMap((b) => b.create), opts);
    const actorOf = new Map<string, Actor>();
    let next = 0;
    for (const { i, create } of group) {
      const mine = ids.slice(next, next += create.length);
      made[i] = { value: { ids: mine } };
      for (const id of mine) actorOf.set(id, jobs[i].actor);
    }
    for (const p of op.pending.slice(mark)) p.rows = p.rows.map((r) => ({ id: r.id, actor: actorOf.get(String(r.id)) ?? r.actor }));
  }

  /**
   * The requests whose object is not there, or not one their actor may view (a 404): one
   * statement for each actor's, under the batch's lock. Asked here rather than by each request
   * before it joins: a statement a request less, where the batch reads in one what it asks.
   */
  private async unreachable(op: WriteOperation, jobs: AllocationRequest[]): Promise<Set<number>> {
    const gone = new Set<number>();
    const asking = [...jobs.keys()].filter((i) => jobs[i].event.id !== null);
    for (const group of groupBy(asking, (i) => [jobs[i].actor.userId, jobs[i].actor.superuser ?? false])) {
      const { actor, m } = jobs[group[0]];
      const found = new Set(await this.store.existing(this.operations.acting(op, actor), m, [...new Set(group.map((i) => jobs[i].event.id!))], { action: "view" }));
      for (const i of group) if (!found.has(jobs[i].event.id!)) gone.add(i);
    }
    return gone;
  }

  /** Each request in a savepoint of its own: one that fails takes nothing, and starts a fresh memo. */
  private async oneByOne(op: WriteOperation, jobs: AllocationRequest[], order: number[]): Promise<Array<Outcome<Made>>> {
    const outcomes: Array<Outcome<Made>> = [];
    let memo: Record<string, unknown> = {};
    for (const [k, i] of order.entries()) {
      const { actor, made, many, opts } = jobs[i];
      if (k > 0 && jobs[order[k - 1]].event.id !== jobs[i].event.id) memo = {};
      try {
        outcomes[i] = { value: await this.operations.savepoint(this.operations.acting(op, actor), async (sp): Promise<Made> => {
          const allocation = await this.find(sp, jobs, order, k, memo, {});
          if ("shortage" in allocation) return allocation;
          const { create } = allocation;
          return { ids: many ? await this.store.createMany(sp, made, create, opts) : [await this.store.create(sp, made, create[0], opts)] };
        }) };
      } catch (error) {
        outcomes[i] = { error };
        memo = {};
      }
    }
    return outcomes;
  }

  /** The hook's allocation for the `k`th request in `order`, told how many items wait on the same object from it on. */
  private find(op: WriteOperation, jobs: AllocationRequest[], order: number[], k: number, memo: Record<string, unknown>, carried: Record<string, unknown>) {
    const { m, name, event, items } = jobs[order[k]];
    const queued = order.slice(k).filter((j) => jobs[j].event.id === event.id).reduce((n, j) => n + jobs[j].items.length, 0);
    return m.hooks!.allocate![name]({ ...event, db: op.trx, items, memo, carried, queued });
  }

  /**
   * The objects made, read once the transaction committed: one statement for all the requests
   * that read them alike (each request's alone, should one have gone meanwhile).
   */
  private async answers(jobs: AllocationRequest[], made: Array<Outcome<Made>>): Promise<Array<Outcome<Allocated>>> {
    const answers = made.map((o): Outcome<Allocated> => ("error" in o ? o : "shortage" in o.value ? { value: o.value } : { value: { objects: [] } }));
    const answered = [...made.keys()].filter((i) => { const o = made[i]; return "value" in o && "ids" in o.value; });
    const idsOf = (i: number) => (made[i] as { value: { ids: string[] } }).value.ids;
    const fetch = (i: number, ids: string[]) =>
      this.store.fetch(this.operations.readPrimary(jobs[i].actor), jobs[i].made, ids, { ...jobs[i].read, unscoped: true });
    for (const group of groupBy(answered, (i) => [jobs[i].actor.userId, jobs[i].read])) {
      const ids = group.flatMap(idsOf);
      const objects = await fetch(group[0], ids);
      let next = 0;
      for (const i of group) {
        answers[i] = { value: { objects: objects.length === ids.length ? objects.slice(next, next += idsOf(i).length) : await fetch(i, idsOf(i)) } };
      }
    }
    return answers;
  }
}
