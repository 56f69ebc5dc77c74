// A connection's prepared statements are evicted with DEALLOCATE (runtime/db/prepared.ts). A name
// held for a statement PostgreSQL refused to parse is no statement of the connection: its
// DEALLOCATE failed, and inside a transaction that aborted it, so the write's next statement
// failed with "current transaction is aborted" and the request was a 500 whose cause was hidden
// (the suite's hostile-input sweep found it, then a create after it failed).
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { openDatabase } from "../../runtime/db/connect.js";
import { MAX_PER_CONNECTION, prepared } from "../../runtime/db/prepared.js";

describe("prepared statements: evicting a name PostgreSQL never parsed", () => {
  it("leaves the transaction it happens in working", async function () {
    this.timeout(300_000);
    const db = await openDatabase({ ...configFromEnv(), dataDir: "memory://", poolSize: 1, statementTimeoutMs: 0 });
    try {
      // Named from its second run, and refused each time: held, never parsed.
      for (let i = 0; i < 2; i++) {
        const refused = await prepared(db.knex.raw("SELECT no_such_column_here FROM pg_class")).then(() => false, () => true);
        expect(refused).to.equal(true);
      }
      await db.knex.transaction(async (trx) => {
        // Enough other names to evict it, the least recently used, in this transaction.
        for (let n = 0; n <= MAX_PER_CONNECTION; n++) {
          for (let k = 0; k < 2; k++) await prepared(trx.raw(`SELECT ${n} AS n`));
        }
        const { rows } = await trx.raw("SELECT 1 AS one");
        expect(rows[0].one).to.equal(1);
      });
    } finally {
      await db.close();
    }
  });
});
