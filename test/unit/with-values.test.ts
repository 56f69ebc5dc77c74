// A statement written with its values (runtime/db/with-values.ts): each of knex's placeholders
// becomes the value pg would have sent, as a literal that cannot end early, and a statement
// whose values cannot all be written in is not written at all.
import { expect } from "chai";
import { withValues } from "../../runtime/db/with-values.js";

describe("unit: a statement written with its values", () => {
  it("writes each value as pg sends it, in order, and an escaped question mark as an operator's", () => {
    const sql = withValues({
      sql: "select * from t0 where a = ? and b = ANY(?::text[]) and c \\?| array['x'] and f = ? and g = ?",
      bindings: [1, ["a,b", 'c"d', null], true, null],
    });
    expect(sql).to.equal(String.raw`select * from t0 where a = '1' and b = ANY( E'{"a,b","c\\"d",NULL}'::text[]) and c ?| array['x'] and f = 'true' and g = NULL`);
  });

  it("doubles quotes, and writes a backslash in an escape string, which no setting reads otherwise", () => {
    expect(withValues({ sql: "x = ? and y = ?", bindings: ["it's", "a\\'; drop table t; --"] }))
      .to.equal(String.raw`x = 'it''s' and y =  E'a\\''; drop table t; --'`);
  });

  it("writes nothing where a value is not text to pg, or the values do not match the placeholders", () => {
    expect(withValues({ sql: "x = ?", bindings: [Buffer.from("ab")] })).to.equal(undefined);
    expect(withValues({ sql: "x = ? and y = ?", bindings: [1] })).to.equal(undefined);
    expect(withValues({ sql: "x = ?", bindings: [1, 2] })).to.equal(undefined);
  });
});
