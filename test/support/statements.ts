// Counts the SQL statements a request makes: Knex's query events on the test server's own
// connection, for the suites that promise a list is one statement. The token lookup that
// authenticates a request is left out: whether it is made depends on how long ago the token
// was last checked (runtime/auth/identities.ts, TOKEN_TRUST_MS).
import { get, type CallOptions } from "./http.js";
import { startTestServer } from "./server.js";

export async function statements(path: string, opts: CallOptions = {}): Promise<{ sql: string[]; status: number; body: any }> {
  const { db } = await startTestServer();
  const sql: string[] = [];
  const listen = (q: { sql: string }) => { if (!q.sql.includes('"users_token"')) sql.push(q.sql); };
  db.on("query", listen);
  try {
    const reply = await get(path, opts);
    return { sql, status: reply.status, body: reply.body };
  } finally {
    db.removeListener("query", listen);
  }
}
