// Which statements get names (from the second time a text is seen, the same name for the same
// text in every process) and how many a connection holds (the least recently used go first).
import { expect } from "chai";
import { HeldNames, StatementNames } from "../../runtime/db/prepared.js";

describe("unit: prepared statement names", () => {
  it("a text is named from its second sighting on, always with the same name", () => {
    const names = new StatementNames();
    expect(names.nameOf("select 1")).to.equal(undefined);
    const name = names.nameOf("select 1");
    expect(name).to.match(/^a_[0-9a-f]{24}$/);
    expect(names.nameOf("select 1")).to.equal(name);
    expect(new StatementNames().nameOf("select 2")).to.equal(undefined);
    const other = new StatementNames();
    other.nameOf("select 1");
    expect(other.nameOf("select 1"), "the same text has the same name in every process").to.equal(name);
  });

  it("texts keep being named however many there were before", () => {
    const names = new StatementNames();
    for (let i = 0; i < 6000; i++) {
      names.nameOf(`select ${i}`);
      expect(names.nameOf(`select ${i}`)).to.match(/^a_/);
    }
  });

  it("long texts are remembered up to a bound on their characters, the least recently used forgotten", () => {
    const names = new StatementNames();
    const long = (i: number) => `select ${i} -- ${"x".repeat(40_000)}`;
    names.nameOf(long(0));
    expect(names.nameOf(long(0))).to.match(/^a_/);
    // 300 statements of a list of devices' length: 12 million characters, over the bound.
    for (let i = 1; i <= 300; i++) names.nameOf(long(i));
    expect(names.nameOf(long(300)), "seen just now").to.match(/^a_/);
    expect(names.nameOf(long(0)), "forgotten: counted afresh").to.equal(undefined);
  });

  it("a connection holds the most recently used names; the others are given to deallocate", () => {
    const held = new HeldNames(3);
    expect(held.use("a")).to.deep.equal([]);
    expect(held.use("b")).to.deep.equal([]);
    expect(held.use("c")).to.deep.equal([]);
    expect(held.use("a")).to.deep.equal([]);
    expect(held.use("d")).to.deep.equal(["b"]);
    expect(held.use("e")).to.deep.equal(["c"]);
    expect(held.use("b")).to.deep.equal(["a"]);
  });
});
