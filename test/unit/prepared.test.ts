// Which statements get names: from the second time a text is seen, the same name for the
// same text, and no new names beyond the process's bound.
import { expect } from "chai";
import { StatementNames } from "../../runtime/db/prepared.js";

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

  it("names at most 200 texts; the ones named keep their names", () => {
    const names = new StatementNames();
    for (let i = 0; i < 250; i++) {
      names.nameOf(`select ${i}`);
      names.nameOf(`select ${i}`);
    }
    expect(names.size).to.equal(200);
    expect(names.nameOf("select 0")).to.match(/^a_/);
    expect(names.nameOf("select 249")).to.equal(undefined);
  });
});
