// Every write is an operation: one transaction, run again when PostgreSQL aborted it to break
// a deadlock or a serialization conflict, whose actor (who, in which request, through what)
// everything inside it can see. The store tells the write features (change records, webhooks)
// about each row it writes, inside the operation's transaction: what a rolled-back operation
// wrote, they wrote nothing of. Profiles turn requests into operations; nothing else opens a
// write transaction; what no request makes (fixtures, the command line) runs as a system
// operation (`Operations.system`), and the store refuses a write outside any operation.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import type { Grants } from "../features/index.js";

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
  saved?(db: Knex.Transaction | Knex, m: ModelDescriptor, ids: RowId[], action: "create" | "update", actor: Actor): Promise<void>;
  /**
   * Instead of `saved`: every row of `m` the operation created (or updated), told once, at its
   * end, still inside its transaction; rows written in a savepoint later rolled back are left
   * out. For work that costs per statement more than per row (one read, one insert for all).
   */
  savedAtEnd?(db: Knex.Transaction, m: ModelDescriptor, action: "create" | "update", rows: Written): Promise<void>;
  /** Rows of `m` about to be deleted, still there to be read. */
  deleting?(db: Knex.Transaction | Knex, m: ModelDescriptor, ids: RowId[], actor: Actor): Promise<void>;
}

/** What features are to hear at an operation's end. */
interface Pending { feature: WriteFeature; m: ModelDescriptor; action: "create" | "update"; rows: Written }

interface Context { actor: Actor; pending: Pending[] }

const current = new AsyncLocalStorage<Context>();

/** The change log's user name for the changes of a system operation, which no user makes. */
export const SYSTEM_NAME = "system";
/** A system operation's change context (Nautobot's for changes made outside requests and jobs). */
export const SYSTEM_CONTEXT = "orm";

/** The actor of the operation this code runs in; none outside operations (migrations, reads). */
export const actorOf = (): Actor | undefined => current.getStore()?.actor;

/** Runs `work` as `actor`'s, within an operation that is already open (one batch serving many requests). */
export function actingAs<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
  const ctx = current.getStore();
  if (!ctx) throw new Error("actingAs outside an operation");
  return current.run({ actor, pending: ctx.pending }, work);
}

/** Queues rows for a feature told at the operation's end; false outside an operation. */
export function tellAtEnd(feature: WriteFeature, m: ModelDescriptor, action: "create" | "update", ids: RowId[]): boolean {
  const ctx = current.getStore();
  if (!ctx) return false;
  ctx.pending.push({ feature, m, action, rows: ids.map((id) => ({ id, actor: ctx.actor })) });
  return true;
}

/**
 * Tells each feature what it waited for, one call per feature, model and action. A row is
 * told once: one the operation created and then changed is a creation (its end state, as
 * Nautobot folds an object's later changes within a request into the record it made), one
 * changed twice is one change, each by the actor that first wrote it.
 */
async function flush(trx: Knex.Transaction, pending: Pending[]): Promise<void> {
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
    if (!rows.length) continue;
    const byModel = groups.get(p.feature) ?? new Map<string, Pending>();
    groups.set(p.feature, byModel);
    const key = `${p.m.key} ${p.action}`;
    const group = byModel.get(key);
    if (group) group.rows.push(...rows);
    else byModel.set(key, { ...p, rows });
  }
  for (const byModel of groups.values()) for (const g of byModel.values()) await g.feature.savedAtEnd!(trx, g.m, g.action, g.rows);
}

/** PostgreSQL's codes for a transaction it aborted so that another could go on: deadlock, serialization failure. */
const CONFLICTS = ["40P01", "40001"];
const ATTEMPTS = 3;

export interface RunOptions {
  /** Further error codes after which the whole operation runs again (a profile's races it answers by rerunning). */
  retryOn?: string[];
  /** Attempts in all, the first included. */
  attempts?: number;
}

export class Operations {
  constructor(private readonly db: Knex) {}

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
   * Runs `work` in a transaction as `actor`'s operation. When PostgreSQL aborts it for a
   * conflict (or an error of `retryOn`), the whole of it runs again on a fresh transaction,
   * up to the attempts; the last error passes through.
   */
  async run<T>(actor: Actor, work: (trx: Knex.Transaction) => Promise<T>, opts: RunOptions = {}): Promise<T> {
    const retried = new Set([...CONFLICTS, ...(opts.retryOn ?? [])]);
    const attempts = opts.attempts ?? ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      try {
        const pending: Pending[] = [];
        return await current.run({ actor, pending }, () => this.db.transaction(async (trx) => {
          const result = await work(trx);
          await flush(trx, pending);
          return result;
        }));
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code !== "string" || !retried.has(code) || attempt >= attempts) throw err;
      }
    }
  }

  /**
   * Runs `work` in a savepoint of the operation's transaction: when it fails, what it wrote is
   * rolled back and the features hear nothing of it at the operation's end.
   */
  async savepoint<T>(trx: Knex.Transaction, work: (sp: Knex.Transaction) => Promise<T>): Promise<T> {
    const pending = current.getStore()?.pending;
    const mark = pending?.length ?? 0;
    try {
      return await trx.transaction(work);
    } catch (err) {
      pending?.splice(mark);
      throw err;
    }
  }
}
