// Statements sent ahead of their outcome (runtime/db/pipeline.ts), on the test server's own
// database: on PostgreSQL pipelined, on the embedded engine one after another. Either way an
// operation fails with the first of them that failed, and leaves nothing.
import { expect } from "chai";
import { Operations } from "../../runtime/operations/index.js";
import { sendAhead } from "../../runtime/db/pipeline.js";
import { startTestServer } from "../support/server.js";

describe("e2e: statements sent ahead", () => {
  const table = "armature_pipeline_probe";
  let operations: Operations;
  const count = async () => Number((await (await startTestServer()).db(table).count({ n: "*" }))[0].n);

  before(async () => {
    const { db } = await startTestServer();
    await db.schema.dropTableIfExists(table);
    await db.schema.createTable(table, (t) => t.integer("x").notNullable().unique());
    operations = new Operations(db);
  });

  after(async () => {
    await (await startTestServer()).db.schema.dropTableIfExists(table);
  });

  it("a statement sent ahead that fails is the operation's error, not the aborted statements after it", async () => {
    const failed = await operations.run(Operations.system("probe"), async (op) => {
      await sendAhead(op.trx, op.trx(table).insert({ x: 1 }));
      await sendAhead(op.trx, op.trx(table).insert({ x: null }));
      await op.trx(table).insert({ x: 2 });
    }).then(() => undefined, (err: { code?: string }) => err);
    expect(failed?.code).to.equal("23502");
    expect(await count()).to.equal(0);
  });

  it("a verdict on what a statement sent ahead found refuses the operation before it commits", async () => {
    const failed = await operations.run(Operations.system("probe"), async (op) => {
      await sendAhead(op.trx, op.trx.raw("SELECT 1 AS one"), { then: () => { throw new Error("refused"); } });
      await op.trx(table).insert({ x: 3 });
    }).then(() => undefined, (err: Error) => err);
    expect(failed?.message).to.equal("refused");
    expect(await count()).to.equal(0);
  });

  it("a statement sent with the commit that fails turns the commit into a rollback, and is the operation's error", async () => {
    const failed = await operations.run(Operations.system("probe"), async (op) => {
      await op.trx(table).insert({ x: 4 });
      await sendAhead(op.trx, op.trx(table).insert({ x: 4 }), { withCommit: true });
    }).then(() => undefined, (err: { code?: string }) => err);
    expect(failed?.code).to.equal("23505");
    expect(await count()).to.equal(0);
    await operations.run(Operations.system("probe"), async (op) => {
      await sendAhead(op.trx, op.trx(table).insert({ x: 5 }), { withCommit: true });
    });
    expect(await count()).to.equal(1);
  });
});
