// Counts the SQL statements a request makes: Knex's query events on the test server's own
// connection, for the suites that promise a list is one statement, or every statement sent on
// any connection (`sentStatements`), for those that promise a bulk write's. The token lookup that
// authenticates a request, and the read of the requester's object permissions, are left out:
// whether they are made depends on how long ago they were last read (TOKEN_TRUST_MS,
// PERMISSION_TRUST_MS).
import pg from "pg";
import { get, type CallOptions } from "./http.js";
import { startTestServer } from "./server.js";

export async function statements(path: string, opts: CallOptions = {}): Promise<{ sql: string[]; bindings: unknown[][]; status: number; body: any }> {
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
    const reply = await get(path, opts);
    return { sql, bindings, status: reply.status, body: reply.body };
  } finally {
    db.removeListener("query", listen);
  }
}

/**
 * The statements sent to the database while `request` runs, counted where every one goes
 * through, pg's Client.query (PGlite's connections too): whether Knex built it or the runtime
 * sent it itself (a named prepared statement, a savepoint). Left out besides the reads that
 * authenticate the request: a DEALLOCATE, which depends on what the connection held before.
 */
export async function sentStatements<T>(request: () => Promise<T>): Promise<{ reply: T; sql: string[] }> {
  const sql: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : first?.text ?? "";
    if (!/"users_(token|objectpermission)"|^DEALLOCATE /.test(text)) sql.push(text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return { reply: await request(), sql };
  } finally {
    pg.Client.prototype.query = query;
  }
}
