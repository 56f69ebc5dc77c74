// Helpers shared by the inventory end-to-end suites: unique names so suites never collide,
// and direct database reads to prove what a request did (or did not) change.
import { startTestServer } from "../../support/server.js";

let counter = 0;

/** A name no other test uses: `<prefix>-<pid>-<n>`. */
export function uniq(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** Number of rows in `table` matching `where` (all rows when omitted). */
export async function rows(table: string, where: Record<string, unknown> = {}): Promise<number> {
  const { db } = await startTestServer();
  const r = await db(table).where(where).count({ n: "*" }).first();
  return Number((r as { n: string | number }).n);
}

/** One row of `table` by id, or undefined. */
export async function row(table: string, id: string): Promise<Record<string, any> | undefined> {
  const { db } = await startTestServer();
  return db(table).where("id", id).first();
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MISSING_ID = "00000000-0000-4000-8000-000000000000";
