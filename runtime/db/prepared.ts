// Named prepared statements. A read plan's statement is long (nested JSON sub-selects for
// every related object) and PostgreSQL spent more time parsing and planning it than running
// it. A query marked `prepare` runs as a statement named by a hash of its text, so each
// connection parses and plans it once and afterwards only binds and executes it. pg keeps the
// names a connection has prepared; the same text always has the same name, on every
// connection and every instance.
//
// How PostgreSQL plans a statement is the statement's to say where its choice ("auto": plan for
// the values five times, then once for all if that looks no dearer) goes wrong. A read plan's
// statement is marked to be planned once for any values (generic): PostgreSQL kept planning a
// page of prefixes afresh for each offset (6.2 ms a page against 3.7 generic). A list filtered
// by ranges, containment or patterns is marked to be planned for each execution's values
// (custom): PostgreSQL settled on a generic plan for `within=10.0.0.0/8` that sorted every
// prefix for a page of 50 (17 ms against 7 planned for the value). A connection is put in the
// mode a statement wants by a SET sent ahead of it, only when it is in another; an unnamed
// statement with values, planned once anyway, is planned for them (any mode but generic), and
// other named statements are left to PostgreSQL's choice or planned once (any mode but custom).
//
// Only statements seen more than once are named, and a connection holds at most
// MAX_PER_CONNECTION of them, the least recently used deallocated first: a name holds a plan in
// its backend, so one-off shapes (filters combined once) must not accumulate there, and a
// long-running server must keep preparing the shapes that are hot now.
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import PgDialect from "knex/lib/dialects/postgres/index.js";
import pg from "pg";
import { KeptTexts } from "../kept-texts.js";

const SEEN_BEFORE_NAMING = 2;
export const MAX_PER_CONNECTION = 200;
/**
 * Characters of statement text remembered (counted, or with their name) at most, the least
 * recently used forgotten first: some hundreds of statements of long lists.
 */
const REMEMBERED_CHARACTERS = 8_000_000;

interface Compiled { sql: string; bindings?: unknown[]; options?: Record<string, unknown> }

export class StatementNames {
  /** By text: how often it was seen while not yet named, or its name. */
  private readonly known = new KeptTexts<number | string>(REMEMBERED_CHARACTERS);

  /** The name `sql` runs under, or undefined while it is not (yet) worth one. */
  nameOf(sql: string): string | undefined {
    const known = this.known.get(sql);
    if (typeof known === "string") return known;
    const seen = (known ?? 0) + 1;
    const value = seen < SEEN_BEFORE_NAMING ? seen : `a_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
    this.known.set(sql, value);
    return typeof value === "string" ? value : undefined;
  }
}

/** What pg's connection keeps of the statements it has prepared, and the socket it writes to. */
interface PgConnection { parsedStatements?: Record<string, string>; stream?: { cork?(): void; uncork?(): void } }
interface PgClient { connection?: PgConnection; pipeline?: boolean; query(text: string): Promise<unknown> }

/** The names one connection holds, least recently used first, at most `max`. */
export class HeldNames {
  private readonly held = new Map<string, true>();

  constructor(private readonly max = MAX_PER_CONNECTION) {}

  /** Marks `name` as used and gives the names to deallocate first, so that no more than `max` are held. */
  use(name: string): string[] {
    this.held.delete(name);
    this.held.set(name, true);
    const evicted: string[] = [];
    for (const old of this.held.keys()) {
      if (this.held.size <= this.max) break;
      this.held.delete(old);
      evicted.push(old);
    }
    return evicted;
  }
}

const heldBy = new WeakMap<object, HeldNames>();

/** How PostgreSQL plans a named statement: once for any values, or for each execution's. */
export type PlanMode = "generic" | "custom";
type ConnectionMode = PlanMode | "auto" | "unknown";
const PLAN_CACHE_MODE: Record<Exclude<ConnectionMode, "unknown">, string> = { generic: "force_generic_plan", custom: "force_custom_plan", auto: "auto" };

/**
 * The plan mode of each connection that left PostgreSQL's default (auto); "unknown" after a
 * rollback, which undoes a SET made in what it rolled back.
 */
const planModes = new WeakMap<object, ConnectionMode>();

/**
 * The SET that puts `client` in the mode a statement wants, where it is not in it already:
 * `wanted` for a named one that says, any mode but custom for a named one that does not (it
 * would be planned anew each time), any mode but generic for an unnamed one with values.
 */
function planSwitch(client: object, named: boolean, wanted: PlanMode | undefined, values: boolean): string | undefined {
  const mode = planModes.get(client) ?? "auto";
  let next: ConnectionMode | undefined = named ? wanted : undefined;
  if (!next) {
    // The mode a statement that says nothing must not run in: custom would plan a named one
    // anew each time, generic would plan an unnamed one blind to its values.
    const unfit = named ? "custom" : values ? "generic" : undefined;
    if (unfit && (mode === unfit || mode === "unknown")) next = "auto";
  }
  if (!next || next === mode) return undefined;
  planModes.set(client, next);
  return `SET plan_cache_mode = ${PLAN_CACHE_MODE[next]}`;
}

/** The last query sent on each connection that does not pipeline: the next one waits for it. */
const lastOnConnection = new WeakMap<object, Promise<unknown>>();

/** Pipelining connections whose BEGIN waits to go out with the transaction's first statement. */
const beginning = new WeakSet<object>();

/** Sockets corked until the work of this turn of the event loop is done. */
const corked = new WeakSet<object>();

/**
 * Holds what `client` writes until this turn's work is done (its promise jobs run: the next
 * tick comes after them): the statements a turn sends (a write's row, its tags and its answer)
 * leave in one socket write, which costs the server more than the statements themselves, and
 * none waits for the event loop's other callbacks.
 */
function corkTurn(client: PgClient): void {
  const stream = client.connection?.stream;
  if (!stream?.cork || !stream.uncork || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork!();
  });
}

/**
 * Deallocates `name` on a pipelining connection without waiting for it: the DEALLOCATE goes
 * out in the same socket write as the statement that evicted it, so an eviction costs no round
 * trip. pg forgets the name at once, so a statement sent under it after this parses it anew,
 * behind the DEALLOCATE. Only a name PostgreSQL parsed: a DEALLOCATE of one it refused to parse
 * would fail and abort the transaction it is sent in. Should it fail anyway (in a transaction
 * already aborted, where the statements after it fail too), the name is still the backend's,
 * and pg is told so again.
 */
function deallocateAhead(client: PgClient, name: string): void {
  const parsed = client.connection?.parsedStatements;
  const text = parsed?.[name];
  if (!parsed || text === undefined) return;
  delete parsed[name];
  client.query(`DEALLOCATE ${name}`).catch(() => { parsed[name] = text; });
}

/** The response knex is given for a BEGIN, COMMIT or ROLLBACK this module answers itself. */
const answered = (obj: Compiled, command: string) => Object.assign(obj, { response: { command, rows: [], rowCount: null, fields: [] } });

/**
 * knex's PostgreSQL client, naming the statements of queries built with
 * `.options({ prepare: true })`; everything else runs unnamed as before. On a connection in
 * pg's pipeline mode (PostgreSQL's), a query goes out as soon as it is made, behind those still
 * unanswered, and what one turn of the event loop sends leaves in one socket write; a
 * transaction's BEGIN leaves with its first statement, and a transaction that sent none sends
 * neither BEGIN nor its end. Elsewhere (the embedded engine) queries sent on one connection
 * while another runs there (a write's fields are taken concurrently in its transaction) wait
 * their turn here, as pg would queue them itself but warns that it will not. A query's
 * `onSent` option is called once it is in the connection's queue (runtime/db/pipeline.ts).
 */
export function preparingClient(names: StatementNames): typeof Knex.Client {
  const Base = PgDialect as unknown as new (config: Knex.Config) => {
    query(connection: unknown, obj: Compiled): Promise<unknown>;
    _query(connection: unknown, obj: Compiled): Promise<unknown>;
    positionBindings(sql: string): string;
  };
  class PreparingPg extends Base {
    // A kept text's values come as an option (`bound`), given to the query before knex tells
    // its listeners of it.
    query(connection: unknown, obj: Compiled): Promise<unknown> {
      if (obj.options?.values) obj.bindings = obj.options.values as unknown[];
      return super.query(connection, obj);
    }

    positionBindings(sql: string): string {
      return positionedTexts.get(sql) ? sql : super.positionBindings(sql);
    }

    _query(connection: unknown, obj: Compiled): Promise<unknown> {
      if (/^ROLLBACK/i.test(obj.sql)) planModes.set(connection as object, "unknown");
      const run = this.dispatch(connection, obj);
      if (obj.sql !== "COMMIT;") return run;
      // PostgreSQL ends a transaction that a statement sent ahead of it failed in with a
      // rollback, and says so only by the command's tag: the commit failed, and whatever waits
      // for it (events published on commit) is to hear so.
      return run.then((done) => {
        if ((obj as { response?: { command?: string } }).response?.command !== "ROLLBACK") return done;
        planModes.set(connection as object, "unknown");
        throw new Error("the transaction was rolled back at its commit: a statement in it failed");
      });
    }

    private dispatch(connection: unknown, obj: Compiled): Promise<unknown> {
      const onSent = obj.options?.onSent as (() => void) | undefined;
      const onRow = obj.options?.onRow as ((row: Record<string, unknown>) => void) | undefined;
      if (onSent || onRow) {
        const { onSent: _onSent, onRow: _onRow, ...options } = obj.options!;
        obj.options = options;
      }
      const client = connection as PgClient;
      if (client.pipeline) {
        if (obj.sql === "BEGIN;") {
          beginning.add(client);
          return Promise.resolve(answered(obj, "BEGIN"));
        }
        if (beginning.has(client) && (obj.sql === "COMMIT;" || obj.sql === "ROLLBACK")) {
          beginning.delete(client);
          return Promise.resolve(answered(obj, obj.sql === "ROLLBACK" ? "ROLLBACK" : "COMMIT"));
        }
      }
      let evicted: string[] = [];
      let name: string | undefined;
      let plan: PlanMode | undefined;
      if (obj.options?.prepare) {
        const { prepare: _prepare, plan: wanted, values: _values, ...options } = obj.options;
        plan = wanted as PlanMode | undefined;
        name = names.nameOf(obj.sql);
        if (name) {
          let held = heldBy.get(connection as object);
          if (!held) heldBy.set(connection as object, (held = new HeldNames()));
          evicted = held.use(name);
        }
        // knex reads the response off this very object, so it is changed in place.
        obj.options = name ? { ...options, name } : options;
      }
      const planned = planSwitch(client, !!name, plan, !!obj.bindings?.length);
      const submit = () => {
        const run = onRow ? rowByRow(connection as pg.ClientBase, obj, onRow) : super._query(connection, obj);
        onSent?.();
        return run;
      };
      const send = async () => {
        for (const old of evicted) {
          // Only a name PostgreSQL parsed: a DEALLOCATE of one it refused to parse (a statement
          // that failed) would fail, and abort the transaction the next query then fails in.
          if (client.connection?.parsedStatements?.[old] === undefined) continue;
          // In an aborted transaction it fails, as the query after it will: the name stays, known to pg.
          const gone = await client.query(`DEALLOCATE ${old}`).then(() => true, () => false);
          if (gone) delete client.connection.parsedStatements[old];
        }
        if (planned) await client.query(planned).catch(() => planModes.set(client, "unknown"));
        return submit();
      };
      if (client.pipeline) {
        corkTurn(client);
        // BEGIN cannot fail on a connection that answers the statement after it: should it
        // anyway, that statement is answered with its error, and the operation fails.
        const begun = beginning.delete(client) ? client.query("BEGIN;") : undefined;
        for (const old of evicted) deallocateAhead(client, old);
        if (planned) client.query(planned).catch(() => planModes.set(client, "unknown"));
        const run = submit();
        return begun ? Promise.all([begun, run]).then(([, done]) => done) : run;
      }
      const key = connection as object;
      const before = lastOnConnection.get(key);
      const run = before ? before.then(send, send) : send();
      const settled = run.catch(() => undefined);
      lastOnConnection.set(key, settled);
      void settled.then(() => { if (lastOnConnection.get(key) === settled) lastOnConnection.delete(key); });
      return run;
    }
  }
  return PreparingPg as unknown as typeof Knex.Client;
}

/**
 * Runs `obj` as knex's `_query` does, but gives each row to `onRow` as it arrives, keeping none:
 * the response's rows are empty. Should `onRow` throw, the rows after are not given, and the
 * query fails with that error once PostgreSQL has answered it.
 */
function rowByRow(client: pg.ClientBase, obj: Compiled, onRow: (row: Record<string, unknown>) => void): Promise<Compiled> {
  const query = new pg.Query({ text: obj.sql, values: obj.bindings ?? [], ...obj.options });
  return new Promise((resolve, reject) => {
    let failed: { err: unknown } | undefined;
    query.on("row", (row: Record<string, unknown>) => {
      if (failed) return;
      try {
        onRow(row);
      } catch (err) {
        failed = { err };
      }
    });
    query.on("error", reject);
    query.on("end", (response: unknown) => {
      if (failed) return reject(failed.err);
      Object.assign(obj, { response });
      resolve(obj);
    });
    void client.query(query);
  });
}

/** Marks a query to run as a named prepared statement once it is hot, planned as `plan` says (PostgreSQL's choice when not told). */
export function prepared<T extends Knex.QueryBuilder | Knex.Raw>(query: T, plan?: PlanMode): T {
  return query.options(plan ? { prepare: true, plan } : { prepare: true }) as T;
}

/**
 * Texts already in pg's form ($1, $2…), which knex is not to number again: a text kept to run
 * many times (a read plan's built statements, runtime/store.ts) was scanned twice on every run,
 * by knex's raw query and its PostgreSQL dialect, some 100 µs for the calendar's archive.
 */
const positionedTexts = new KeptTexts<true>(REMEMBERED_CHARACTERS);

/** `sql` (knex's form: a `?` per value, `\?` a question mark) in pg's, to run with `bound`. */
export function positioned(sql: string): string {
  const text = (PgDialect as unknown as { prototype: { positionBindings(sql: string): string } }).prototype.positionBindings(sql);
  positionedTexts.set(text, true);
  return text;
}

/**
 * The text of `statement` in pg's form, to keep and run again with `bound`, where the values it
 * compiles to are `bindings`, in their order (what the caller binds at each run); null where
 * they are not, and the statement is to be built each time.
 */
export function positionedAs(statement: Knex.QueryBuilder | Knex.Raw, bindings: readonly unknown[]): string | null {
  const compiled = statement.toSQL();
  const same = compiled.bindings.length === bindings.length && compiled.bindings.every((b, n) => b === bindings[n]);
  return same ? positioned(compiled.sql) : null;
}

/** The text `positioned` gave, bound to `values`: a prepared query, planned as `plan` says. */
export function bound(db: Knex | Knex.Transaction, text: string, values: readonly unknown[], plan?: PlanMode): Knex.Raw {
  // Kept the most recent: it must still be known when knex comes to number the text.
  positionedTexts.set(text, true);
  return db.raw(text).options({ prepare: true, plan, values });
}
