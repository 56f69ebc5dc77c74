// A connection's prepared statements are evicted with DEALLOCATE (runtime/db/prepared.ts). A name
// held for a statement PostgreSQL refused to parse is no statement of the connection: its
// DEALLOCATE failed, and inside a transaction that aborted it, so the write's next statement
// failed with "current transaction is aborted" and the request was a 500 whose cause was hidden
// (the suite's hostile-input sweep found it, then a create after it failed). On PostgreSQL an
// eviction's DEALLOCATE leaves in the same socket write as the statement that evicted it: a
// write kept at its round trips however many names its connection had held before.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { openDatabase } from "../../runtime/db/connect.js";
import { MAX_PER_CONNECTION, prepared } from "../../runtime/db/prepared.js";
import { roundTrips } from "../support/statements.js";

describe("prepared statements: evicting a connection's least recently used name", () => {
  it("of a name PostgreSQL never parsed leaves the transaction it happens in working", async function () {
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

  it("costs no round trip: the DEALLOCATE goes out with the statement that evicted, and the name is gone", async function () {
    this.timeout(300_000);
    const db = await openDatabase({ ...configFromEnv(), dataDir: "memory://", poolSize: 1, statementTimeoutMs: 0 });
    const held = async () => (await db.knex.raw("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0].n as number;
    try {
      for (let n = 0; n < MAX_PER_CONNECTION; n++) {
        for (let k = 0; k < 2; k++) await prepared(db.knex.raw(`SELECT ${n} AS n`));
      }
      expect(await held()).to.equal(MAX_PER_CONNECTION);
      await prepared(db.knex.raw("SELECT 'newest' AS n"));
      const evicting = () => db.knex.transaction(async (trx) => (await prepared(trx.raw("SELECT 'newest' AS n"))).rows[0].n);
      const trips = await roundTrips(evicting);
      expect(trips.reply).to.equal("newest");
      // BEGIN, the statement and the DEALLOCATE; then COMMIT.
      if (!db.embedded) expect(trips.writes, trips.writes.join("\n\n")).to.have.length(2);
      expect(await held()).to.equal(MAX_PER_CONNECTION);
      // The evicted name parses anew when it is wanted again.
      const again = await prepared(db.knex.raw("SELECT 0 AS n"));
      expect(again.rows[0].n).to.equal(0);
    } finally {
      await db.close();
    }
  });
});
