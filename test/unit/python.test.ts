// Python's readings of request values, as the DRF profile reproduces them: type names in
// messages, DRF's IntegerField, and Django's DecimalField truncated to an integer lookup.
import { expect } from "chai";
import { drfInteger, truncatedDecimal } from "../../runtime/text/python.js";
import { pyType } from "../../runtime/profiles/drf/wording.js";

describe("unit: Python readings", () => {
  it("names JSON values by their Python types", () => {
    expect([null, [], {}, 1, 1.5, "x", true].map(pyType)).to.deep.equal(["NoneType", "list", "dict", "int", "float", "str", "bool"]);
  });

  it("reads integers as DRF's IntegerField: whole numbers and their text, a trailing .0 allowed", () => {
    const read = (v: unknown) => (drfInteger(v) === null ? null : Number(drfInteger(v)));
    expect(["80", " 80 ", "+80", "-3", "80.0", "80.", "80.00  ", "1_000", 80, 80.0].map(read)).to.deep.equal([80, 80, 80, -3, 80, 80, 80, 1000, 80, 80]);
    expect(["80.5", "8e1", "1__0", "_1", "", "x", true, null, [80], { a: 1 }, 1.5].map(read)).to.deep.equal(Array(11).fill(null));
  });

  it("truncates a decimal as int(Decimal(...)) does, and knows values no stored integer can be", () => {
    const cases: Array<[string, string | null]> = [
      ["80", "80"], [" 80.9 ", "80"], ["-80.9", "-80"], ["1e2", "100"], ["0.53E2", "53"], [".5", "0"], ["5.", "5"], ["-0", "0"],
      ["1e-400", "0"], ["1_0", "10"], ["1e1001", "huge"], ["abc", null], ["NaN", null], ["Infinity", null], [".", null], ["1e", null], ["", null],
    ];
    for (const [text, expected] of cases) expect(truncatedDecimal(text), text).to.equal(expected);
  });
});
