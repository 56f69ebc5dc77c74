// Counts the SQL statements a request makes: Knex's query events on the test server's own
// connection, for the suites that promise a list is one statement.
import { get, type CallOptions } from "./http.js";
import { startTestServer } from "./server.js";

export async function statements(path: string, opts: CallOptions = {}): Promise<{ sql: string[]; status: number; body: any }> {
  const { db } = await startTestServer();
  const sql: string[] = [];
  const listen = (q: { sql: string }) => sql.push(q.sql);
  db.on("query", listen);
  try {
    const reply = await get(path, opts);
    return { sql, status: reply.status, body: reply.body };
  } finally {
    db.removeListener("query", listen);
  }
}
