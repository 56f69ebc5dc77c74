// Every read and write is an operation: a value (`Operation`) naming its actor (who, in which
// request, through what), its connection and the rows that actor may reach, handed explicitly
// to every store call. A write's is one transaction, run again when PostgreSQL aborted it to
// break a deadlock or a serialization conflict. The store tells the write features (change
// records, webhooks) about each row it writes, inside the operation's transaction: what a
// rolled-back operation wrote, they wrote nothing of. Profiles turn requests into operations;
// nothing else opens a write transaction; what no request makes (fixtures, the command line)
// runs as a system operation (`Operations.system`).
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import type { Grants } from "../features/index.js";
import type { ReadOptions } from "../store.js";
import { readRouting } from "../db/replicas.js";
import { causeOf, settle } from "../db/pipeline.js";
import { presume, presumptionsHeld } from "../db/presumed.js";

/** Who makes an operation, and through what (Nautobot's change context). */
export interface Actor {
  userId: string | null;
  username: string | null;
  /** One per HTTP request (the X-Request-Id it answers with), shared by every change it makes. */
  requestId: string;
  /** What the change came through: `api` for a REST request, `orm` for a system operation. */
  context: string;
  /** Where, within it: the route's name. */
  contextDetail: string;
  /** What the actor may do, when object permissions restrict it (none: anything). */
  grants?: Grants;
  /** A request that gave no credentials: it reads only what needs no permission. */
  anonymous?: boolean;
  /** A superuser's request (where no object permissions say so through `grants`). */
  superuser?: boolean;
  /** The model the request addresses: writes of its rows are checked against the grants; what they cause elsewhere is not, as in Nautobot. */
  subject?: string;
}

/** A row's primary key: a UUID, or an integer for models with serial ids. */
export type RowId = string | number;

export type ChangeAction = "create" | "update" | "delete";

/** Rows an operation created or updated, each with the actor that wrote it. */
export type Written = Array<{ id: RowId; actor: Actor }>;

/**
 * A cross-cutting feature of every write. The store calls it inside the operation's
 * transaction, for whole sets of rows where it writes sets (a bulk create is one call).
 */
export interface WriteFeature {
  /** Whether the feature wants to hear of writes to rows of `m`. */
  watches(m: ModelDescriptor): boolean;
  /** Rows of `m` just created or updated, with their links and after-save work done. */
  saved?(op: WriteOperation, m: ModelDescriptor, ids: RowId[], action: "create" | "update"): Promise<void>;
  /**
   * Instead of `saved`: every row of `m` the operation created (or updated), told once, at its
   * end, still inside its transaction; rows written in a savepoint later rolled back are left
   * out. For work that costs per statement more than per row (one read, one insert for all).
   */
  savedAtEnd?(op: WriteOperation, m: ModelDescriptor, action: "create" | "update", rows: Written): Promise<void>;
  /**
   * Told, with `savedAtEnd`'s features, as soon as a row of `m` is written: what the operation's
   * end will need to read may be sent now, with the write's statements (runtime/db/pipeline.ts).
   */
  expecting?(op: WriteOperation, m: ModelDescriptor, action: "create" | "update"): void;
  /** Rows of `m` about to be deleted, still there to be read. */
  deleting?(op: WriteOperation, m: ModelDescriptor, ids: RowId[]): Promise<void>;
  /**
   * Where the rows of `m` it is to hear of at the operation's end are those of a write's answer,
   * read as the operation's last step (Store.answerJson): its work of them done in the answer's
   * statement, from the objects that statement renders, rather than from a read of its own at
   * the end. Undefined where it cannot be done so (the end then tells it as ever).
   */
  alongAnswer?(op: WriteOperation, m: ModelDescriptor, action: "create" | "update", rows: Written): Promise<AlongAnswer | undefined>;
}

/** A feature's work in the statement of a write's answer (WriteFeature.alongAnswer). */
export interface AlongAnswer {
  /** How it reads the rows: it rides along only where this read's JSON text is the answer's own. */
  reads: ReadOptions;
  /**
   * Its data-modifying statement, in SQL with its bindings, over `rows`: the FROM item of the
   * answer's rows (columns `id` and `n`, their order, named by `id` and `n`), and `object`, the
   * jsonb expression of each as `reads` shows it, with the bindings it takes where it stands.
   */
  statement(source: AnswerRows): { sql: string; bindings: unknown[] };
  /** Told once the statement ran: the rows' work is done. */
  ran(): void;
}

/** The rows of a write's answer, as a feature's statement in it reads them (AlongAnswer.statement). */
export interface AnswerRows {
  rows: string;
  id: string;
  n: string;
  object: { sql: string; bindings: unknown[] };
}

/** What features are to hear at an operation's end; `taken` once heard along a write's answer (`pendingOf`). */
interface Pending { feature: WriteFeature; m: ModelDescriptor; action: "create" | "update"; rows: Written; taken?: boolean }

/** A condition on rows, as SQL with its bindings. */
export interface RowCondition {
  sql: string;
  bindings: unknown[];
}

/**
 * The rows of `m` (aliased `alias`) an actor may `action` (view, when not given): the
 * condition they must meet, or null when every row does.
 */
export type Scope = (m: ModelDescriptor, alias: string, action?: string) => RowCondition | null;

/**
 * What every store read and write is given: whose it is, on which connection, and which rows
 * that actor may reach. A read runs on a read pool (a replica's that has the actor's own writes,
 * or the primary's: runtime/db/replicas.ts); a write runs in its transaction and gathers
 * what the features are to hear at its end. Nothing reads or writes through the store without
 * one, so nothing passes the permission checks, the change log or the webhooks by.
 */
export interface Operation {
  /** The write's transaction (or one of its savepoints); the pool, for a read. */
  readonly trx: Knex | Knex.Transaction;
  readonly actor: Actor;
  readonly scope: Scope;
}

/** An operation that writes: in a transaction, with the features' end-of-operation work. */
export interface WriteOperation extends Operation {
  readonly trx: Knex.Transaction;
  readonly pending: Pending[];
  /** The users the operation wrote for: their next reads, through any instance, are to see it. */
  readonly writers: Set<string>;
}

/** The change log's user name for the changes of a system operation, which no user makes. */
export const SYSTEM_NAME = "system";
/** A system operation's change context (Nautobot's for changes made outside requests and jobs). */
export const SYSTEM_CONTEXT = "orm";

/** Queues rows for a feature told at the operation's end. */
export function tellAtEnd(op: WriteOperation, feature: WriteFeature, m: ModelDescriptor, action: "create" | "update", ids: RowId[]): void {
  op.pending.push({ feature, m, action, rows: ids.map((id) => ({ id, actor: op.actor })) });
}

/**
 * What `feature` is to hear at the operation's end of rows of `m`, where that is one action on
 * exactly the rows `ids` (each told once, by the actor that first wrote it, in the order
 * written), with `take` to hear it now: the end then leaves those rows out. Undefined where it
 * is anything else.
 */
export function pendingOf(op: WriteOperation, feature: WriteFeature, m: ModelDescriptor, ids: RowId[]):
  { action: "create" | "update"; rows: Written; take(): void } | undefined {
  const entries = op.pending.filter((p) => p.feature === feature && p.m.key === m.key && !p.taken);
  const action = entries[0]?.action;
  if (!action || entries.some((p) => p.action !== action)) return undefined;
  const rows = new Map<string, Written[number]>();
  for (const p of entries) for (const r of p.rows) if (!rows.has(String(r.id))) rows.set(String(r.id), r);
  const wanted = new Set(ids.map(String));
  if (rows.size !== wanted.size || [...rows.keys()].some((id) => !wanted.has(id))) return undefined;
  return {
    action,
    rows: [...rows.values()],
    take: () => entries.forEach((p) => (p.taken = true)),
  };
}

/**
 * Tells each feature what it waited for, one call per feature, model and action. A row is
 * told once: one the operation created and then changed is a creation (its end state, as
 * Nautobot folds an object's later changes within a request into the record it made), one
 * changed twice is one change, each by the actor that first wrote it.
 */
async function flush(op: WriteOperation): Promise<void> {
  const { pending } = op;
  const groups = new Map<WriteFeature, Map<string, Pending>>();
  const told = new Map<WriteFeature, Set<string>>();
  const created = new Set(pending.flatMap((p) => (p.action === "create" ? p.rows.map((r) => `${p.m.key} ${r.id}`) : [])));
  for (const p of pending) {
    const seen = told.get(p.feature) ?? new Set<string>();
    told.set(p.feature, seen);
    const rows = p.rows.filter((r) => {
      const key = `${p.m.key} ${r.id}`;
      if (seen.has(key) || (p.action === "update" && created.has(key))) return false;
      seen.add(key);
      return true;
    });
    if (!rows.length || p.taken) continue;
    const byModel = groups.get(p.feature) ?? new Map<string, Pending>();
    groups.set(p.feature, byModel);
    const key = `${p.m.key} ${p.action}`;
    const group = byModel.get(key);
    if (group) group.rows.push(...rows);
    else byModel.set(key, { ...p, rows });
  }
  for (const byModel of groups.values()) for (const g of byModel.values()) await g.feature.savedAtEnd!(op, g.m, g.action, g.rows);
}

/** PostgreSQL's codes for a transaction it aborted so that another could go on: deadlock, serialization failure. */
const CONFLICTS = ["40P01", "40001"];
const ATTEMPTS = 3;

export interface RunOptions<T = unknown> {
  /** Further error codes after which the whole operation runs again (a profile's races it answers by rerunning). */
  retryOn?: string[];
  /** Attempts in all, the first included. */
  attempts?: number;
  /**
   * Presume what lookups would find (runtime/db/presumed.ts): the first attempt waits for no
   * answer of them. Should it fail where a presumption did not hold, it runs again without
   * presuming, not counted among the attempts, and its answer (or error) is that run's.
   */
  presume?: boolean;
  /**
   * Work on the result while the commit is on its way (a bulk's answer made into its text):
   * run once the operation's last statements and its COMMIT are sent, while PostgreSQL
   * executes them, rather than after their answer, with nothing else to do meanwhile. Its
   * outcome stands only if the operation commits: its caller decides whether to use it.
   */
  meanwhile?: (result: T) => void;
}

export class Operations {
  /**
   * `scopeOf` gives the rows an actor may reach: an api's engine asks its features
   * (runtime/engine.ts); without one, every row (system work spanning several APIs).
   */
  constructor(private readonly db: Knex, private readonly scopeOf: (actor: Actor) => Scope = () => () => null) {}

  /**
   * The actor of writes no request makes: `name` (the command, `demo-data`) is their change
   * context's detail. No user, so the change log records them as the system's rather than
   * leaving them out as Nautobot does; no grants, so no permission check refuses them; a
   * request id of its own, shared by everything the operation writes.
   */
  static system(name: string): Actor {
    return { userId: null, username: SYSTEM_NAME, requestId: randomUUID(), context: SYSTEM_CONTEXT, contextDetail: name };
  }

  /**
   * `actor`'s reads: where the database routes them (a replica that has the actor's writes, or
   * the primary), or in the transaction these operations were made on.
   */
  async read(actor: Actor): Promise<Operation> {
    const routing = readRouting(this.db);
    return { trx: routing ? await routing.readsFor(actor) : this.db, actor, scope: this.scopeOf(actor) };
  }

  /** `actor`'s reads of what was just written for others too: on the primary. */
  readPrimary(actor: Actor): Operation {
    return { trx: this.db, actor, scope: this.scopeOf(actor) };
  }

  /** `op` as `actor`'s from here on: the same transaction, and what the features hear at its end told in one. */
  acting(op: WriteOperation, actor: Actor): WriteOperation {
    if (actor.userId) op.writers.add(actor.userId);
    return { trx: op.trx, actor, scope: this.scopeOf(actor), pending: op.pending, writers: op.writers };
  }

  /**
   * Runs `work` in a transaction as `actor`'s operation. When PostgreSQL aborts it for a
   * conflict (or an error of `retryOn`), the whole of it runs again on a fresh transaction,
   * up to the attempts; the last error passes through.
   */
  async run<T>(actor: Actor, work: (op: WriteOperation) => Promise<T>, opts: RunOptions<T> = {}): Promise<T> {
    const retried = new Set([...CONFLICTS, ...(opts.retryOn ?? [])]);
    const attempts = opts.attempts ?? ATTEMPTS;
    const scope = this.scopeOf(actor);
    const routing = readRouting(this.db);
    let presuming = !!opts.presume;
    for (let attempt = 1; ; attempt++) {
      let transaction: Knex.Transaction | undefined;
      let committed = false;
      try {
        const writers = new Set<string>(actor.userId ? [actor.userId] : []);
        const result = await this.db.transaction(async (trx) => {
          transaction = trx;
          if (presuming) presume(trx);
          const op: WriteOperation = { trx, actor, scope, pending: [], writers };
          const result = await work(op);
          await flush(op);
          await settle(trx);
          // The COMMIT leaves as this returns, within the turn: the check phase comes after it.
          if (opts.meanwhile) {
            const { meanwhile } = opts;
            setImmediate(() => meanwhile(result));
          }
          return result;
        });
        // What went with the commit: had it failed, the commit rolled the transaction back.
        await settle(transaction!, true);
        committed = true;
        // Committed; should this fail, the write stands but is answered as the failure it is
        // (503), as the writer's next reads could otherwise miss it.
        await routing?.wrote(writers);
        return result;
      } catch (thrown) {
        const err = await causeOf(transaction, thrown);
        if (presuming && !committed && !(await presumptionsHeld(transaction))) {
          presuming = false;
          attempt--;
          continue;
        }
        const code = (err as { code?: unknown }).code;
        if (typeof code !== "string" || !retried.has(code) || attempt >= attempts) throw err;
      }
    }
  }

  /**
   * Runs `work` in a savepoint of the operation's transaction: when it fails, what it wrote is
   * rolled back and the features hear nothing of it at the operation's end.
   */
  async savepoint<T>(op: WriteOperation, work: (sp: WriteOperation) => Promise<T>): Promise<T> {
    const mark = op.pending.length;
    let savepoint: Knex.Transaction | undefined;
    try {
      return await op.trx.transaction(async (trx) => {
        savepoint = trx;
        const result = await work({ ...op, trx });
        await settle(trx);
        return result;
      });
    } catch (err) {
      op.pending.splice(mark);
      throw await causeOf(savepoint, err);
    }
  }
}
