// A list of integers: one jsonb column holding a JSON array (as Nautobot's JSONArrayField),
// read as an array of bounded integers and written item by item (DRF's ListField), where a
// whole-number string counts as its number. It makes no filter of its own: a spec names one
// (`filters.extra`, lookup `contains`), as Nautobot's `port` filter over `ports`.
import type { ListField } from "../../runtime/descriptor.js";
import type { ListField as ListSpec } from "../dsl/index.js";
import { sqlLiteral } from "./sql-literal.js";
import { nullable, type GeneratorFieldKind, type Schema, type SpecRules } from "./types.js";

/** The text DRF's IntegerField reads as a whole number: `int()` syntax, with `.0…` allowed after it. */
const INTEGER_TEXT = "^\\s*[+-]?\\d+(?:_\\d+)*\\s*(?:\\.0*\\s*)?$";
/** The options an item field may carry: its type and bounds. */
const ITEM_KEYS = new Set(["kind", "type", "min", "max", "description"]);

export const listSpec: SpecRules<ListSpec, ListField> = {
  check(f, { err }) {
    if (f.of?.kind !== "scalar" || f.of.type !== "integer") err("list items must be an integer field: field.list(field.integer({ min, max }))");
    else if (Object.keys(f.of).some((k) => !ITEM_KEYS.has(k))) err("list items take only min and max");
    if (f.default !== undefined && !(Array.isArray(f.default) && f.default.every(Number.isInteger))) err("a list field's default is a list of integers");
    if (!f.required && !f.nullable && f.default === undefined) err("an optional list field needs a default or nullable: true (or required: true)");
  },
  build: (f, common, { name }) => ({
    ...common,
    kind: "list",
    column: f.column ?? name,
    items: { type: "integer", ...(f.of.min !== undefined ? { min: f.of.min } : {}), ...(f.of.max !== undefined ? { max: f.of.max } : {}) },
  }),
};

function itemSchema(f: ListField): Schema {
  const { min, max } = f.items;
  return { type: "integer", ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
}

export const list: GeneratorFieldKind<ListField> = {
  schema(f, { table }) {
    table.columns[f.column] = { type: "jsonb", nullable: f.nullable };
    if (f.default !== undefined) table.columns[f.column].default = `${sqlLiteral(JSON.stringify(f.default))}::jsonb`;
  },
  readSchema: (f) => nullable({ type: "array", items: itemSchema(f) }, f.nullable),
  writeSchema: (f) => nullable({
    type: "array",
    items: { anyOf: [itemSchema(f), { type: "string", pattern: INTEGER_TEXT, description: "The integer as text (within the same bounds)." }] },
  }, f.nullable),
};
