// Named prepared statements. A read plan's statement is long (nested JSON sub-selects for
// every related object) and PostgreSQL spent more time parsing and planning it than running
// it. A query marked `prepare` runs as a statement named by a hash of its text, so each
// connection parses and plans it once and afterwards only binds and executes it. pg keeps the
// names a connection has prepared; the same text always has the same name, on every
// connection and every instance.
//
// Only statements seen more than once are named, and at most MAX_NAMED per process: a name
// holds a plan in every backend that ran it, so one-off shapes (filters combined once) must
// not accumulate there.
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import PgDialect from "knex/lib/dialects/postgres/index.js";

const MAX_NAMED = 200;
const SEEN_BEFORE_NAMING = 2;
/** Texts counted while deciding what is hot: beyond this the counts start over. */
const MAX_COUNTED = 5000;

interface Compiled { sql: string; bindings?: unknown[]; options?: Record<string, unknown> }

export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The name `sql` runs under, or undefined while it is not (yet) worth one. */
  nameOf(sql: string): string | undefined {
    const known = this.named.get(sql);
    if (known || this.named.size >= MAX_NAMED) return known;
    const seen = (this.counts.get(sql) ?? 0) + 1;
    if (seen < SEEN_BEFORE_NAMING) {
      if (this.counts.size >= MAX_COUNTED) this.counts.clear();
      this.counts.set(sql, seen);
      return undefined;
    }
    this.counts.delete(sql);
    const name = `a_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
    this.named.set(sql, name);
    return name;
  }

  get size(): number {
    return this.named.size;
  }
}

/** The last query sent on each connection: the next one waits for it. */
const lastOnConnection = new WeakMap<object, Promise<unknown>>();

/**
 * knex's PostgreSQL client, naming the statements of queries built with
 * `.options({ prepare: true })`; everything else runs unnamed as before. Queries sent on one
 * connection while another runs there (a write's fields are taken concurrently in its
 * transaction) wait their turn here, as pg would queue them itself but warns that it will not.
 */
export function preparingClient(names: StatementNames): typeof Knex.Client {
  const Base = PgDialect as unknown as new (config: Knex.Config) => { _query(connection: unknown, obj: Compiled): Promise<unknown> };
  class PreparingPg extends Base {
    _query(connection: unknown, obj: Compiled): Promise<unknown> {
      if (obj.options?.prepare) {
        const { prepare: _prepare, ...options } = obj.options;
        const name = names.nameOf(obj.sql);
        // knex reads the response off this very object, so it is changed in place.
        obj.options = name ? { ...options, name } : options;
      }
      const key = connection as object;
      const before = lastOnConnection.get(key);
      const run = before ? before.then(() => super._query(connection, obj), () => super._query(connection, obj)) : super._query(connection, obj);
      const settled = run.catch(() => undefined);
      lastOnConnection.set(key, settled);
      void settled.then(() => { if (lastOnConnection.get(key) === settled) lastOnConnection.delete(key); });
      return run;
    }
  }
  return PreparingPg as unknown as typeof Knex.Client;
}

/** Marks a query to run as a named prepared statement once it is hot. */
export function prepared<T extends Knex.QueryBuilder | Knex.Raw>(query: T): T {
  return query.options({ prepare: true }) as T;
}
