// What the write features hear at an operation's end: each row once, a row created and then
// changed as its creation, rows of a rolled-back savepoint not at all, and the whole operation
// run again after a serialization failure.
import { expect } from "chai";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../runtime/descriptor.js";
import { Operations, SYSTEM_NAME, tellAtEnd, type Actor, type WriteFeature, type Written } from "../../runtime/operations/index.js";

const model = (key: string) => ({ key }) as ModelDescriptor;
const actor = (name: string): Actor => ({ userId: name, username: name, requestId: `req-${name}`, context: "api", contextDetail: "" });

/** A database whose transactions (and savepoints) just run their work. */
const db = (() => {
  const trx = { transaction: <T>(work: (t: unknown) => Promise<T>) => work(trx) };
  return trx as unknown as Knex;
})();

function recorder() {
  const told: Array<{ model: string; action: string; rows: Array<[string | number, string | null]> }> = [];
  const feature: WriteFeature = {
    watches: () => true,
    savedAtEnd: async (_db, m, action, rows: Written) => {
      told.push({ model: m.key, action, rows: rows.map((r) => [r.id, r.actor.username]) });
    },
  };
  return { feature, told };
}

describe("operations: what features hear at the end", () => {
  it("tells a row created and then changed once, as a creation", async () => {
    const { feature, told } = recorder();
    const a = model("dcim.site");
    await new Operations(db).run(actor("alice"), async (op) => {
      tellAtEnd(op, feature, a, "create", ["s1", "s2"]);
      tellAtEnd(op, feature, a, "update", ["s1", "s3"]);
      tellAtEnd(op, feature, a, "update", ["s3"]);
    });
    expect(told).to.deep.equal([
      { model: "dcim.site", action: "create", rows: [["s1", "alice"], ["s2", "alice"]] },
      { model: "dcim.site", action: "update", rows: [["s3", "alice"]] },
    ]);
  });

  it("keeps rows of other models apart, and leaves out a rolled-back savepoint's", async () => {
    const { feature, told } = recorder();
    const ops = new Operations(db);
    await ops.run(actor("bob"), async (op) => {
      tellAtEnd(op, feature, model("dcim.site"), "create", [1]);
      await ops.savepoint(op, async (sp) => {
        tellAtEnd(sp, feature, model("dcim.rack"), "create", [1]);
        throw new Error("refused");
      }).catch(() => undefined);
      tellAtEnd(op, feature, model("dcim.rack"), "create", [2]);
    });
    expect(told).to.deep.equal([
      { model: "dcim.site", action: "create", rows: [[1, "bob"]] },
      { model: "dcim.rack", action: "create", rows: [[2, "bob"]] },
    ]);
  });

  it("runs the whole operation again after a serialization failure, telling only the last attempt", async () => {
    const { feature, told } = recorder();
    let attempts = 0;
    await new Operations(db).run(actor("carol"), async (op) => {
      tellAtEnd(op, feature, model("dcim.site"), "create", [`try${++attempts}`]);
      if (attempts === 1) throw Object.assign(new Error("could not serialize access"), { code: "40001" });
    });
    expect(attempts).to.equal(2);
    expect(told).to.deep.equal([{ model: "dcim.site", action: "create", rows: [["try2", "carol"]] }]);
  });

  it("a system operation's actor: no user, no grants, the system's name, the command as detail, a request id of its own", async () => {
    const first = Operations.system("demo-data");
    const second = Operations.system("demo-data");
    expect(first).to.deep.include({ userId: null, username: SYSTEM_NAME, context: "orm", contextDetail: "demo-data" });
    expect(first.grants).to.equal(undefined);
    expect(first.requestId).to.match(/^[0-9a-f-]{36}$/).and.not.equal(second.requestId);
    const { feature, told } = recorder();
    await new Operations(db).run(first, async (op) => {
      expect(op.actor).to.equal(first);
      tellAtEnd(op, feature, model("dcim.site"), "create", ["s1"]);
    });
    expect(told).to.deep.equal([{ model: "dcim.site", action: "create", rows: [["s1", SYSTEM_NAME]] }]);
  });
});

describe("operations: work on the result while the commit is on its way", () => {
  /** A database whose transaction's commit takes a while after the work ends, as a COMMIT's round trip does. */
  const slowCommit = (events: string[]) => ({
    transaction: async <T>(work: (t: unknown) => Promise<T>) => {
      const result = await work({});
      events.push("commit sent");
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push("commit answered");
      return result;
    },
  }) as unknown as Knex;

  it("runs `meanwhile` on the result after the commit is sent and before it is answered", async () => {
    const events: string[] = [];
    const result = { objects: [1, 2] };
    const got = await new Operations(slowCommit(events)).run(actor("carol"), async () => result, {
      meanwhile: (done) => events.push(`meanwhile ${done === result}`),
    });
    expect(got).to.equal(result);
    expect(events).to.deep.equal(["commit sent", "meanwhile true", "commit answered"]);
  });
});
