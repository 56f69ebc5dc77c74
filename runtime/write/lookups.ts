// The existence checks a write makes (is this id a row of that model, is this slug a status
// of this model) sent together: checks asked for in the same turn of the event loop share
// one statement, and checks of the same kind share one branch of it, their keys bound as one
// array. A write's fields are read concurrently, and a bulk body's elements too, so a create
// with five related objects and two tags, or a thousand of them, checks its references in one
// round trip. Reads of whole rows a write will need anyway (definitions of custom fields, of
// required relationships) can ride in the same statement. In a presuming transaction
// (runtime/db/presumed.ts) the answers are given at once, as presumed, and the statement sent
// is one that fails unless they hold.
import type { Knex } from "knex";
import { prepared } from "../db/prepared.js";
import { sendPresumption } from "../db/pipeline.js";
import { lastReads, presumes } from "../db/presumed.js";

type Db = Knex | Knex.Transaction;

/**
 * A kind of check: `select` gives the found keys as text in a column `k`, and binds the keys
 * asked for once, as an array of `cast` (e.g. `uuid[]`), where it says `?`.
 */
export interface LookupKind {
  select: string;
  cast: string;
}

interface Pending {
  kind: LookupKind;
  keys: Map<string, Array<(found: boolean) => void>>;
  failures: Array<(err: unknown) => void>;
}

/** A read of whole rows riding in the batch's statement. */
interface RowRead {
  sql: string;
  bindings: unknown[];
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

export class LookupBatch {
  private pending = new Map<string, Pending>();
  private reads: RowRead[] = [];
  private scheduled = false;
  private readonly presuming: boolean;

  constructor(private readonly db: Db) {
    this.presuming = presumes(db);
  }

  /** Whether `key` is among the keys `kind` finds. */
  has(kind: LookupKind, key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const id = `${kind.cast}|${kind.select}`;
      let group = this.pending.get(id);
      if (!group) this.pending.set(id, (group = { kind, keys: new Map(), failures: [] }));
      const waiting = group.keys.get(key) ?? [];
      waiting.push(resolve);
      group.keys.set(key, waiting);
      group.failures.push(reject);
      this.schedule();
    });
  }

  /** The rows `sql` selects (its `?` bound to `bindings`), read in the batch's statement. */
  rows<T>(sql: string, bindings: unknown[]): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      this.reads.push({ sql, bindings, resolve: resolve as (rows: unknown[]) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // What presumes waits for no answer: its statement leaves in this turn, with the write's
    // others (runtime/db/prepared.ts), rather than in a socket write of its own.
    if (this.presuming) queueMicrotask(() => void this.flush());
    else setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const groups = [...this.pending.values()];
    const reads = this.reads;
    this.pending = new Map();
    this.reads = [];
    this.scheduled = false;
    const guesses = reads.map((r) => lastReads.of(r.sql, r.bindings));
    if (this.presuming && guesses.every((g) => g !== undefined)) return this.presumed(groups, reads, guesses as string[]);
    const branches = keyBranches(groups);
    // A read's rows come back as one JSON array, in the order its own statement gives them.
    const readBranches = reads.map((r, n) => `SELECT ${groups.length + n} AS g, (SELECT coalesce(json_agg(r), '[]'::json) FROM (${r.sql}) r)::text AS k`);
    try {
      const bindings = [...groups.map((g) => [...g.keys.keys()]), ...reads.flatMap((r) => r.bindings)];
      const result = await prepared(this.db.raw([...branches, ...readBranches].join(" UNION ALL "), bindings as Knex.RawBinding[]));
      const rows = result.rows as Array<{ g: number; k: string }>;
      const found = new Set(rows.map((r) => `${r.g}|${r.k}`));
      groups.forEach((g, n) => {
        for (const [key, waiting] of g.keys) for (const resolve of waiting) resolve(found.has(`${n}|${key}`));
      });
      reads.forEach((r, n) => {
        const text = rows.find((x) => x.g === groups.length + n)!.k;
        lastReads.set(r.sql, r.bindings, text);
        r.resolve(JSON.parse(text));
      });
    } catch (err) {
      for (const g of groups) for (const reject of g.failures) reject(err);
      for (const r of reads) r.reject(err);
    }
  }

  /**
   * Answers every key as found and every read as it was last read, once the statement that
   * fails unless they are is queued: each key asked is found, each read's rows are the same.
   */
  private async presumed(groups: Pending[], reads: RowRead[], guesses: string[]): Promise<void> {
    const asked = groups.flatMap((g, n) => [...g.keys.keys()].map((k) => ({ g: n, k })));
    const conditions = [
      ...(groups.length ? ["NOT EXISTS (SELECT 1 FROM unnest(?::int[], ?::text[]) AS a(g, k) WHERE NOT EXISTS (SELECT 1 FROM f WHERE f.g = a.g AND f.k = a.k))"] : []),
      ...reads.map((r) => `(SELECT coalesce(jsonb_agg(r), '[]'::jsonb) FROM (${r.sql}) r) = ?::jsonb`),
    ];
    const found = groups.length ? `WITH f AS (${keyBranches(groups).join(" UNION ALL ")}) ` : "";
    const bindings = [
      ...groups.map((g) => [...g.keys.keys()]),
      ...(groups.length ? [asked.map((a) => a.g), asked.map((a) => a.k)] : []),
      ...reads.flatMap((r, n) => [...r.bindings, guesses[n]]),
    ];
    try {
      await sendPresumption(this.db, prepared(this.db.raw(`${found}SELECT armature_presume(${conditions.join(" AND ")}, 'the objects named exist, the definitions read are unchanged') AS held`,
        bindings as Knex.RawBinding[])));
    } catch (err) {
      for (const g of groups) for (const reject of g.failures) reject(err);
      for (const r of reads) r.reject(err);
      return;
    }
    for (const g of groups) for (const waiting of g.keys.values()) for (const resolve of waiting) resolve(true);
    reads.forEach((r, n) => r.resolve(JSON.parse(guesses[n])));
  }
}

/** For each group, the keys its kind finds among those asked (bound once, as an array), numbered `g` by the group. */
const keyBranches = (groups: Pending[]) => groups.map((g, n) => `SELECT ${n} AS g, x.k FROM (${g.kind.select.replace("?", `?::${g.kind.cast}`)}) x`);

/** State kept per connection or transaction: made on first use, gone with it. */
function perDb<T>(make: (db: Db) => T): (db: Db) => T {
  const kept = new WeakMap<object, T>();
  return (db) => {
    let value = kept.get(db);
    if (value === undefined) kept.set(db, (value = make(db)));
    return value;
  };
}

/** The batch of the connection or transaction `db`: lookups made through the same one share statements. */
export const lookupsOf = perDb((db) => new LookupBatch(db));

const remembered = perDb(() => new Map<string, Promise<unknown>>());

/**
 * What `load` gives, read once per transaction `db` and key: definitions a bulk write needs
 * for every element (custom fields, required relationships) cannot change under it, as
 * nothing else in its transaction writes them.
 */
export function oncePerTransaction<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const known = remembered(db);
  let value = known.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    known.set(key, value);
    // A failed read is not remembered: the transaction is aborted by it anyway.
    value.catch(() => known.delete(key));
  }
  return value;
}

/**
 * The rows the transaction `db` holds (FOR KEY SHARE) since a lookup found them, as
 * `<table>:<id>`: a write that must hold them before a later statement need not lock them again.
 */
export const heldRows = perDb(() => new Set<string>());
