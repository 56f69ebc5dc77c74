// How a statement is planned (runtime/db/prepared.ts): a named statement marked generic is
// planned once for any values, one marked custom for each execution's, an unmarked one by
// PostgreSQL's choice or once, and an unnamed one with values for them. PostgreSQL counts the plans each
// prepared statement ran with (pg_prepared_statements), which tells them apart on either
// engine. A rollback undoes a SET made in what it rolled back: the mode is then set again.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { bound, positioned, prepared, StatementNames, type PlanMode } from "../../runtime/db/prepared.js";
import { roundTrips } from "../support/statements.js";

describe("prepared statements: generic plans, or plans for each execution's values", function () {
  this.timeout(300_000);
  let db: Database;
  const byValues = "SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE ?";
  const once = "SELECT count(*)::int AS n FROM pg_class WHERE relname > ?";
  /** Runs `sql` (named from its second run) `times` times, planned as `plan` says. */
  const run = async (sql: string, times: number, plan?: PlanMode, on = db.knex) => {
    for (let i = 0; i < times; i++) await prepared(on.raw(sql, [i % 2 ? "pg_%" : "%"]), plan);
  };
  /** The executions of `sql`'s named statement by the plan they ran with: [generic, custom]. */
  const plans = async (sql: string) => {
    const names = new StatementNames();
    const text = db.knex.raw(sql, [""]).toSQL().toNative().sql;
    names.nameOf(text);
    // Without values: an unnamed statement with values would set the connection's mode itself.
    const { rows } = await db.knex.raw(`SELECT generic_plans::int AS g, custom_plans::int AS c FROM pg_prepared_statements WHERE name = '${names.nameOf(text)}'`);
    return rows.length ? [rows[0].g, rows[0].c] : undefined;
  };
  const mode = async () => (await db.knex.raw("SHOW plan_cache_mode")).rows[0].plan_cache_mode;

  beforeEach(async () => {
    db = await openDatabase({ ...configFromEnv(), dataDir: "memory://", poolSize: 1, statementTimeoutMs: 0 });
  });
  afterEach(async () => {
    await db.close();
  });

  it("a statement marked generic is planned once, one marked custom each time, an unmarked one never each time", async () => {
    expect(await mode()).to.equal("auto");
    // Named from the second run on: each run after the first counted by the plan it ran with.
    await run(once, 4, "generic");
    expect(await plans(once)).to.deep.equal([3, 0]);
    expect(await mode()).to.equal("force_generic_plan");
    await run(byValues, 4, "custom");
    expect(await plans(byValues)).to.deep.equal([0, 3]);
    expect(await mode()).to.equal("force_custom_plan");
    await run(once, 2, "generic");
    expect(await plans(once)).to.deep.equal([5, 0]);
    await run(byValues, 2);
    expect(await plans(byValues), "unmarked: as a connection planning once stands").to.deep.equal([2, 3]);
    expect(await mode()).to.equal("force_generic_plan");
    await run(byValues, 1, "custom");
    await run(once, 1);
    expect(await mode(), "unmarked, after one planned each time: PostgreSQL's own choice").to.equal("auto");
  });

  it("an unnamed statement with values is planned for them: a connection planning once is set back to PostgreSQL's own choice", async () => {
    await run(once, 2, "generic");
    expect(await mode()).to.equal("force_generic_plan");
    const { rows } = await db.knex.raw(byValues, ["pg_class"]);
    expect(rows[0].n).to.equal(1);
    expect(await mode()).to.equal("auto");
    await db.knex.raw("SELECT 1 AS one");
    await run(byValues, 2, "custom");
    await db.knex.raw(byValues, ["pg_class"]);
    expect(await mode(), "any mode but generic will do").to.equal("force_custom_plan");
  });

  it("a mode set in a transaction that was rolled back is set again when a statement next wants it", async () => {
    await run(byValues, 2, "custom");
    await run(once, 2, "generic");
    expect(await plans(byValues)).to.deep.equal([0, 1]);
    await db.knex.transaction(async (trx) => {
      await run(byValues, 1, "custom", trx);
      await trx.rollback();
    }).catch(() => undefined);
    expect(await plans(byValues)).to.deep.equal([0, 2]);
    // The rollback undid the SET: the connection plans once again, and is told so for the next.
    expect(await mode()).to.equal("force_generic_plan");
    await run(byValues, 1, "custom");
    expect(await plans(byValues)).to.deep.equal([0, 3]);
    expect(await mode()).to.equal("force_custom_plan");
  });

  it("a switch costs no round trip: its SET leaves with the statement", async () => {
    await run(byValues, 2, "custom");
    await run(once, 2, "generic");
    const trips = await roundTrips(() => run(byValues, 1, "custom"));
    if (!db.embedded) expect(trips.writes, trips.writes.join("\n\n")).to.have.length(1);
    expect(trips.sql).to.have.length(1);
    expect(await plans(byValues)).to.deep.equal([0, 2]);
  });

  // A text kept to run many times is numbered for pg once (`positioned`), and knex leaves it
  // as it is after that (`bound`): a question mark it holds as an operator or in a literal
  // (knex's `\\?`) stays one, and its values are bound as a raw query's would be.
  it("a text numbered once runs with its values, its own question marks kept", async () => {
    const text = positioned("SELECT ?::text AS a, '\\?' AS q, ?::int + 1 AS b, ?::text[] AS c");
    expect(text).to.equal("SELECT $1::text AS a, '?' AS q, $2::int + 1 AS b, $3::text[] AS c");
    const sent: Array<[string, unknown[]]> = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => sent.push([q.sql, q.bindings]);
    db.knex.on("query", listen);
    try {
      for (let i = 0; i < 3; i++) {
        const { rows } = await bound(db.knex, text, ["x?", i, ["y", "z?"]], "generic");
        expect(rows).to.deep.equal([{ a: "x?", q: "?", b: i + 1, c: ["y", "z?"] }]);
      }
    } finally {
      db.knex.removeListener("query", listen);
    }
    // Knex's listeners are told of the text and its values, as of any query.
    expect(sent).to.deep.equal([0, 1, 2].map((i) => [text, ["x?", i, ["y", "z?"]]]));
    const names = new StatementNames();
    names.nameOf(text);
    const { rows } = await db.knex.raw(`SELECT generic_plans::int AS g, custom_plans::int AS c FROM pg_prepared_statements WHERE name = '${names.nameOf(text)}'`);
    expect(rows, "named from its second run, planned once").to.deep.equal([{ g: 2, c: 0 }]);
  });
});
