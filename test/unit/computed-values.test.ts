// A computed field's JSON text (runtime/kinds/computed.ts) run on the embedded engine: where
// its row is one of a statement's many, a value of the rows as a whole (`StatementRows.whole`,
// a window) is the same for each row, whatever the field's type; elsewhere each row has its own.
import { expect } from "chai";
import type { Database } from "../../runtime/db/connect.js";
import type { ComputedField, ModelDescriptor, ReadValue, StatementRows } from "../../runtime/descriptor.js";
import { computed } from "../../runtime/kinds/computed.js";
import type { ReadContext } from "../../runtime/kinds/types.js";
import { finished } from "../../runtime/query/json-text.js";
import { freshEmbeddedDatabase } from "../support/fresh-db.js";

describe("unit: computed values over a statement's rows", () => {
  let db: Database;
  before(async () => {
    db = await freshEmbeddedDatabase();
  });
  after(async () => {
    await db?.close();
  });

  // How many rows share the row's parity, as a map worked out once: a value of the rows as a
  // whole, looked up by a part worked out once for each row.
  const byParity: ReadValue = ({ alias, rows }) => {
    if (!rows) return `jsonb_build_object('rows', 1)`;
    const parity = rows.once(`(${alias}.x % 2)::text`);
    return `(${rows.whole(`jsonb_object_agg(${parity}, true)`)} -> ${parity}) IS NOT NULL`;
  };
  const counted: ReadValue = ({ rows }) => (rows ? rows.whole("count(*)") : "1");
  const model = { key: "test.thing", hooks: { readValues: { parity: byParity, counted } } } as unknown as ModelDescriptor;
  const field = (name: string, type: string) => ({ kind: "computed", name, schema: { type } }) as unknown as ComputedField;

  /** Each row's text of `fields`, from a statement over rows 1-3 (as a list's page, `many`, or one by one). */
  async function texts(many: boolean, ...fields: ComputedField[]): Promise<unknown[]> {
    const joins: string[] = [];
    const rows: StatementRows = {
      once: (expr) => {
        joins.push(`LEFT JOIN LATERAL (SELECT ${expr} AS v OFFSET 0) t0_v${joins.length + 1} ON true`);
        return `t0_v${joins.length}.v`;
      },
      whole: (aggregate) => `(${aggregate} OVER ())`,
    };
    const ctx = { model, alias: "t0", rows: many ? rows : undefined } as unknown as ReadContext;
    const json = `concat('[', ${fields.map((f) => computed.json!(f, ctx)).join(", ',', ")}, ']')`;
    const result = await db.knex.raw(`SELECT ${json} AS j FROM (VALUES (1), (2), (3)) t0(x) ${joins.join(" ")} ORDER BY t0.x`);
    return result.rows.map((r: { j: string }) => JSON.parse(finished(r.j).text));
  }

  it("gives every row of many the value of them all, an object's and a number's alike", async () => {
    expect(await texts(true, field("counted", "integer"))).to.deep.equal([[3], [3], [3]]);
    expect(await texts(true, field("parity", "boolean"), field("counted", "integer"))).to.deep.equal([[true, 3], [true, 3], [true, 3]]);
  });

  it("works a row's value out for it alone where it is not one of many", async () => {
    expect(await texts(false, field("counted", "integer"))).to.deep.equal([[1], [1], [1]]);
    expect(await texts(false, field("parity", "object"))).to.deep.equal([[{ rows: 1 }], [{ rows: 1 }], [{ rows: 1 }]]);
  });
});
