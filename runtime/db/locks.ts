// Transaction-scoped PostgreSQL advisory locks: writers that check something before writing
// it (a migration table, a start-up admin, a name or slug) take turns on the same key, across
// connections and processes. Uncontended on PGlite, whose one connection runs transactions
// one at a time.
import type { Knex } from "knex";

/** Holds the lock on `key` within `table` until the transaction `trx` ends. */
export async function advisoryLock(trx: Knex, table: string, key: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtext(?), hashtext(?))", [table, key]);
}
