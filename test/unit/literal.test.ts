// The descriptor printer: values are printed exactly, whatever characters strings hold.
import { expect } from "chai";
import { CodeBlockWriter } from "ts-morph";
import { writeLiteral } from "../../generator/emit/literal.js";

function print(value: unknown): string {
  const writer = new CodeBlockWriter({ indentNumberOfSpaces: 2 });
  writeLiteral(writer, value);
  return writer.toString();
}

describe("unit: literal printer", () => {
  it("keeps commas inside strings as they are, inline and in lists", () => {
    const value = { pattern: "^[0-9]{1,3}$", choices: ["a,b", "c"], label: "x,y" };
    const text = print(value);
    expect(text).to.equal('{ pattern: "^[0-9]{1,3}$", choices: ["a,b", "c"], label: "x,y" }');
    expect(new Function(`return ${text};`)()).to.deep.equal(value);
  });

  it("round-trips nested values printed over several lines", () => {
    const value = { fields: [{ name: "n,m", pattern: "^[a-z]{2,4}$", tags: ["p,q"] }], long: "z".repeat(120) };
    expect(new Function(`return ${print(value)};`)()).to.deep.equal(value);
  });
});
