// A statement run as the PostgreSQL server's administrator, on a connection of its own:
// creating and dropping the scratch databases tests make beside the one they serve from.
import pg from "pg";

export async function admin(databaseUrl: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}
