// Counts the SQL statements a request makes: Knex's query events on the test server's own
// connection, for the suites that promise a list is one statement. The token lookup that
// authenticates a request, and the read of the requester's object permissions, are left out:
// whether they are made depends on how long ago they were last read (TOKEN_TRUST_MS,
// PERMISSION_TRUST_MS).
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
