// Counts the SQL statements a request makes: Knex's query events on the test server's own
// connection, for the suites that promise a list is one statement, or every statement sent on
// any connection (`sentStatements`), for those that promise a bulk write's. The token lookup that
// authenticates a request, and the read of the requester's object permissions, are left out:
// whether they are made depends on how long ago they were last read (TOKEN_TRUST_MS,
// PERMISSION_TRUST_MS).
import net from "node:net";
import pg from "pg";
import type { Knex } from "knex";
import { get, type CallOptions, type Reply } from "./http.js";
import { startTestServer } from "./server.js";

/** What a request's statements leave out (see `sentStatements`). */
const UNCOUNTED = /"users_(token|objectpermission)"|^DEALLOCATE |^SET plan_cache_mode /;

export function statements(path: string, opts: CallOptions = {}): Promise<{ sql: string[]; bindings: unknown[][]; status: number; body: any }> {
  return statementsOf(() => get(path, opts));
}

/** `statements` of any request: the statements Knex sent while `request` ran, with their bindings. */
export async function statementsOf(request: () => Promise<Reply>): Promise<{ sql: string[]; bindings: unknown[][]; status: number; body: any }> {
  const { db } = await startTestServer();
  const sql: string[] = [];
  const bindings: unknown[][] = [];
  const listen = (q: { sql: string; bindings?: unknown[] }) => {
    if (q.sql.includes('"users_token"') || q.sql.includes('"users_objectpermission"')) return;
    sql.push(q.sql);
    bindings.push(q.bindings ?? []);
  };
  db.on("query", listen);
  try {
    const reply = await request();
    return { sql, bindings, status: reply.status, body: reply.body };
  } finally {
    db.removeListener("query", listen);
  }
}

/**
 * PostgreSQL's plan of a statement `statements` saw (EXPLAIN, FORMAT JSON; run, where
 * `analyze`, for its actual rows and loops), its bindings written into it as literals.
 */
export async function planOf(db: Knex, sql: string, bindings: unknown[], analyze = false): Promise<any> {
  const literal = (v: unknown): string => (Array.isArray(v) ? literal(`{${v.map((x) => (x === null ? "NULL" : JSON.stringify(String(x)))).join(",")}}`)
    : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  const text = sql.replace(/\$(\d+)/g, (_, n) => literal(bindings[Number(n) - 1])).replace(/\?/g, "\\?");
  const [{ "QUERY PLAN": [plan] }] = (await db.raw(`EXPLAIN (${analyze ? "ANALYZE, " : ""}FORMAT JSON) ${text}`)).rows;
  return plan.Plan;
}

/**
 * Every row of `table` an analyzed plan (`planOf`) looked at, on every loop: read from the
 * table (kept or filtered out), read again from a materialized copy of it, or compared in a
 * join and dropped. What a test counts to tell an index probe from a read of the whole table.
 */
export function rowsTouched(plan: any, table: string): number {
  const reads = (node: any): boolean => node["Relation Name"] === table || (node.Plans ?? []).some(reads);
  const touched = (node: any): number => node["Actual Loops"] * (
    (node["Relation Name"] === table ? node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) : 0)
    + (reads(node) && node["Node Type"] === "Materialize" ? node["Actual Rows"] : 0)
    + (reads(node) ? node["Rows Removed by Join Filter"] ?? 0 : 0))
    + (node.Plans ?? []).reduce((n: number, child: any) => n + touched(child), 0);
  return touched(plan);
}

/**
 * The statements sent to the database while `request` runs, counted where every one goes
 * through, pg's Client.query (PGlite's connections too): whether Knex built it or the runtime
 * sent it itself (a named prepared statement, a savepoint). Left out besides the reads that
 * authenticate the request: a DEALLOCATE, which depends on what the connection held before, and
 * a SET of how the connection plans statements (runtime/db/prepared.ts), which depends on what
 * it ran last.
 */
export async function sentStatements<T>(request: () => Promise<T>): Promise<{ reply: T; sql: string[] }> {
  const sql: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : first?.text ?? "";
    if (!UNCOUNTED.test(text)) sql.push(text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return { reply: await request(), sql };
  } finally {
    pg.Client.prototype.query = query;
  }
}

/**
 * `sentStatements`, and the socket writes that carried them: on PostgreSQL each write of a
 * connection is a batch of statements sent before any of their answers came, so a request
 * waits for one round trip per write (on the embedded engine, which has no socket, none are
 * counted). Counted from the first statement a connection sends for the request.
 */
export async function roundTrips<T>(request: () => Promise<T>): Promise<{ reply: T; sql: string[]; writes: string[][] }> {
  const writes: string[][] = [];
  const pending = new Map<object, string[]>();
  const query = pg.Client.prototype.query;
  const socket = net.Socket.prototype as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
  const [write, writev] = [socket._write, socket._writev];
  const flushed = (stream: object) => {
    const batch = pending.get(stream);
    if (!batch) return;
    writes.push([...batch]);
    batch.length = 0;
  };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : first?.text ?? "";
    const stream = (this as unknown as { connection?: { stream?: object } }).connection?.stream;
    if (stream && !UNCOUNTED.test(text)) {
      const batch = pending.get(stream) ?? [];
      pending.set(stream, batch);
      batch.push(text);
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  socket._write = function (this: object, ...args: unknown[]) {
    flushed(this);
    return write.apply(this, args);
  };
  socket._writev = function (this: object, ...args: unknown[]) {
    flushed(this);
    return writev.apply(this, args);
  };
  try {
    const { reply, sql } = await sentStatements(request);
    return { reply, sql, writes };
  } finally {
    pg.Client.prototype.query = query;
    socket._write = write;
    socket._writev = writev;
  }
}
