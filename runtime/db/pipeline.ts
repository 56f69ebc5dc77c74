// Statements a write sends ahead of their outcome: the row, its tags and its answer leave
// together, and PostgreSQL answers them in one round trip (pg's pipeline mode,
// runtime/db/prepared.ts). What a statement sent ahead does with its result (a check that
// refuses the write) is done when the transaction waits for it (`settle`), before it ends; a
// statement sent with the commit is waited for once the commit is answered. A statement failing
// after one sent ahead failed is that one's consequence (the transaction was aborted), so the
// first failure sent ahead is the operation's (`causeOf`). The embedded engine runs the same
// statements one after the other, in the order sent.
//
// A presuming transaction (runtime/db/presumed.ts) waits for nothing before its COMMIT that
// it can leave to PostgreSQL: a statement without a verdict is waited for with the commit (one
// that failed turns the commit into a rollback), and a verdict PostgreSQL can take itself
// (`holds`) is taken there, as a presumption; only a verdict JavaScript must take is waited for.
import type { Knex } from "knex";
import { prepared } from "./prepared.js";
import { presumed, presumes } from "./presumed.js";

type Db = Knex | Knex.Transaction;

interface Ahead {
  outcome: Promise<unknown>;
  /** Waited for once the commit it went with is answered. */
  withCommit: boolean;
}

const sentIn = new WeakMap<object, Ahead[]>();

export interface AheadOptions<T> {
  /** What follows from the result: a refusal throws. */
  then?: (result: T) => unknown;
  /** The error a failure is reported as. */
  error?: (err: unknown) => unknown;
  /** Sent as the transaction's last statement, with its commit. */
  withCommit?: boolean;
  /**
   * The verdict `then` gives, as SQL over the statement's result rows `r`: true where it would
   * accept them (a data-modifying statement says RETURNING what it wants judged). In a
   * presuming transaction the statement is sent so that it fails where this does not hold.
   */
  holds?: string;
}

/**
 * Sends `query` in the transaction `db`, giving once it is queued on the connection (ahead of
 * anything sent after it); the transaction waits for its outcome before it ends.
 */
export async function sendAhead<T>(db: Db, query: Knex.QueryBuilder | Knex.Raw, opts: AheadOptions<T> = {}): Promise<void> {
  if (presumes(db) && opts.then) {
    if (opts.holds === undefined) return queue(db, query, opts);
    const judged = prepared(db.raw(`WITH r AS (?) SELECT armature_presume(${opts.holds}, 'a check of the write finds nothing to refuse') AS held`, [query]));
    return sendPresumption(db, judged, opts.error);
  }
  return queue(db, query, { ...opts, withCommit: opts.withCommit || presumes(db) });
}

/**
 * Sends, with the commit of the presuming transaction `db`, a statement that fails where a
 * presumption does not hold (runtime/db/presumed.ts), and tells the transaction of it.
 */
export async function sendPresumption(db: Db, query: Knex.QueryBuilder | Knex.Raw, error?: (err: unknown) => unknown): Promise<void> {
  let held!: (holds: boolean) => void;
  presumed(db, new Promise<boolean>((resolve) => (held = resolve)));
  try {
    await queue(db, query, { withCommit: true, then: () => held(true), error: (err) => (held(false), error ? error(err) : err) });
  } catch (err) {
    held(false);
    throw err;
  }
}

/** Sends `query` in `db`, giving once it is queued; its outcome is waited for as `opts` says. */
async function queue<T>(db: Db, query: Knex.QueryBuilder | Knex.Raw, opts: AheadOptions<T>): Promise<void> {
  let sent!: () => void;
  const queued = new Promise<void>((resolve) => (sent = resolve));
  const result = (query.options({ onSent: sent }) as unknown as Promise<T>).then(
    (r) => opts.then?.(r),
    (err: unknown) => { throw opts.error ? opts.error(err) : err; },
  );
  // Waited for later; a failure is never unhandled meanwhile.
  result.catch(() => undefined);
  let list = sentIn.get(db);
  if (!list) sentIn.set(db, (list = []));
  list.push({ outcome: result, withCommit: !!opts.withCommit });
  // A query that fails before it is queued (it could not be built) is settled instead.
  await Promise.race([queued, result.then(() => undefined, () => undefined)]);
}

/**
 * Waits, in the order sent, for what `db` sent ahead (with `withCommit`, those sent with the
 * commit too); the first failure is thrown.
 */
export async function settle(db: Db, withCommit = false): Promise<void> {
  const list = sentIn.get(db);
  if (!list) return;
  const waited = list.filter((a) => withCommit || !a.withCommit);
  // A failure leaves the list whole, for `causeOf` to find the first.
  for (const a of waited) await a.outcome;
  sentIn.set(db, sentIn.get(db)!.filter((a) => !waited.includes(a)));
}

/** The error a transaction `db` failed with: the first failure of what it sent ahead, or `err`. */
export async function causeOf(db: Db | undefined, err: unknown): Promise<unknown> {
  const list = db && sentIn.get(db);
  if (!list) return err;
  sentIn.delete(db);
  for (const a of list) {
    const failure = await a.outcome.then(() => undefined, (e: unknown) => ({ e }));
    if (failure) return failure.e;
  }
  return err;
}
