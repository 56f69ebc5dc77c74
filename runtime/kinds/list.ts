// A list of integers in one JSON column, as DRF's ListField(child=IntegerField(min, max)) over
// Nautobot's JSONArrayField: each item read as DRF reads an integer ("80" and 80.0 are 80),
// refused item by item under its index, stored as a JSON array in the order given.
import type { ListField } from "../descriptor.js";
import { jsonbJson } from "../query/json-text.js";
import { col } from "../query/sql.js";
import { drfInteger } from "../text/python.js";
import type { Problem } from "../problems.js";
import { FieldProblem, type RuntimeFieldKind } from "./types.js";

/** DRF's IntegerField refuses longer strings before reading them. */
const MAX_STRING_LENGTH = 1000;

/** One item as a whole number within the bounds, or the problem refusing it. */
function item(f: ListField, value: unknown): bigint | Problem {
  if (value === null) return { code: "null" };
  if (typeof value === "string" && value.length > MAX_STRING_LENGTH) return { code: "string_too_large" };
  const n = drfInteger(value);
  if (n === null) return { code: "invalid_integer" };
  const { min, max } = f.items;
  if (min !== undefined && n < BigInt(min)) return { code: "min_value", limit: min };
  if (max !== undefined && n > BigInt(max)) return { code: "max_value", limit: max };
  return n;
}

/** The written list as JSON text, or a refusal naming each bad item by its index. */
function coerce(f: ListField, value: unknown): string | null {
  if (value === null) {
    if (f.nullable) return null;
    throw new FieldProblem({ code: "null" });
  }
  if (!Array.isArray(value)) throw new FieldProblem({ code: "not_a_list", given: value });
  const items = value.map((v) => item(f, v));
  const errors = Object.fromEntries(items.flatMap((x, i) => (typeof x === "bigint" ? [] : [[String(i), [x]]])));
  if (Object.keys(errors).length) throw new FieldProblem({ code: "invalid_items" }, errors);
  return `[${items.join(",")}]`;
}

/**
 * The items sorted and run together (`[80, 22, 81, 82]` → `22, 80-82`), as Nautobot's
 * array_to_string: a run is consecutive values, found as equal differences between each
 * value and its rank; repeated values stay separate items.
 */
function ranges(column: string): string {
  const items = `SELECT x::numeric AS v, x::numeric - row_number() OVER (ORDER BY x::numeric) AS run FROM jsonb_array_elements_text(${column}) AS a(x)`;
  return `(SELECT string_agg(CASE WHEN r.lo = r.hi THEN r.lo::text ELSE r.lo || '-' || r.hi END, ', ' ORDER BY r.lo, r.hi) ` +
    `FROM (SELECT min(e.v) AS lo, max(e.v) AS hi FROM (${items}) e GROUP BY e.run) r)`;
}

export const list: RuntimeFieldKind<ListField> = {
  read: (f, { alias }) => col(alias, f.column),
  json: (f, { alias }) => jsonbJson(col(alias, f.column)),
  async write(f, value, { row }) {
    row[f.column] = coerce(f, value);
  },
  checksOwnValue: true,
  storesJson: () => true,
  displayText: (_f, column, transform) => (transform === "ranges" ? ranges(column) : `${column}::text`),
  options: {
    type: () => "list",
    describe(f, info) {
      const { min, max } = f.items;
      info.child = { type: "integer", required: true, read_only: false, ...(min !== undefined ? { min_value: min } : {}), ...(max !== undefined ? { max_value: max } : {}) };
    },
  },
};
