// The `cf_<name>` filters (Nautobot's CustomFieldModelFilterSetMixin): one per custom field of
// the model whose filter logic is not disabled, taking one value (the last given), and the
// multi-value lookups `cf_<name>__<lookup>` of text, URL and select fields (the string
// lookups) and of integer and date fields (`n`, `lt`, `lte`, `gt`, `gte`). Exact matches are
// containment (`@>`) of the key and value, which the column's GIN index serves.
import type { CustomFieldsField } from "../../descriptor.js";
import { anyOf, COMPARE, firstValue, REGEX_IS_VALID, STRING_LOOKUPS, type DynamicFilterProvider, type DynamicFilters, type Planned } from "../../query/filters.js";
import { col } from "../../query/sql.js";
import type { Problem } from "../../problems.js";
import { definitionsOf } from "./definitions.js";

interface FilterDefinition { name: string; type: string; filter_logic: string }

const CHAR_TYPES = new Set(["text", "url", "select"]);
const NUMERIC_TYPES = new Set(["integer", "date"]);
const CHAR_LOOKUPS = ["n", ...Object.keys(STRING_LOOKUPS)];
const NUMERIC_LOOKUPS = ["n", ...Object.keys(COMPARE)];
const TRUE = new Set(["true", "True", "1"]);
const FALSE = new Set(["false", "False", "0"]);

/** A real `YYYY-MM-DD` day. */
function isDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number(m[1]) >= 1 && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

function lookupsOf(type: string): string[] {
  return CHAR_TYPES.has(type) ? CHAR_LOOKUPS : NUMERIC_TYPES.has(type) ? NUMERIC_LOOKUPS : [];
}

/** The plain filter: its one value, matched by the field's type and filter logic. */
function plain(data: string, cf: FilterDefinition, v: string): Planned | Problem[] {
  const key = `(${data} -> ?)`;
  const contains = (value: unknown): Planned => ({ where: (qb) => qb.whereRaw(`${data} @> ?::jsonb`, [JSON.stringify({ [cf.name]: value })]) });
  const isNull: Planned = { where: (qb) => qb.whereRaw(`(${key} IS NULL OR ${key} = 'null'::jsonb)`, [cf.name, cf.name]) };
  switch (cf.type) {
    case "integer":
      if (!/^\s*[+-]?\d+\s*$/.test(v)) return [{ code: "filter_whole_number" }];
      return contains(Number(v.trim()));
    case "boolean":
      // Django's NullBooleanField: anything else is "unknown", and the filter is not applied.
      return TRUE.has(v) ? contains(true) : FALSE.has(v) ? contains(false) : { where: () => undefined };
    case "date":
      if (v === "null") return isNull;
      return isDate(v) ? contains(v) : [{ code: "filter_date" }];
    case "multi-select":
      return v === "null" ? isNull : contains([v]);
    case "select":
      return v === "null" ? isNull : contains(v);
    default:
      if (v === "null") return isNull;
      if (cf.filter_logic === "exact") return contains(v);
      return { where: (qb) => qb.whereRaw(`${data} ->> ? ILIKE ?`, [cf.name, STRING_LOOKUPS.ic.wrap(v)]) };
  }
}

/** A lookup: any of the values (none of them, negated, with the objects that have no value). */
function lookup(data: string, cf: FilterDefinition, name: string, values: string[]): Planned | Problem[] {
  const key = `(${data} -> ?)`;
  const text = `(${data} ->> ?)`;
  if (NUMERIC_TYPES.has(cf.type)) {
    const integer = cf.type === "integer";
    if (integer && values.some((v) => v.trim() === "" || !Number.isFinite(Number(v)))) return [{ code: "filter_number" }];
    if (!integer && !values.every(isDate)) return [{ code: "filter_date" }];
    const cast = integer ? "to_jsonb(?::numeric)" : "to_jsonb(?::text)";
    const op = COMPARE[name] ?? "=";
    return { where: anyOf(values.map(() => `${key} ${op} ${cast}`), values.map((v) => [cf.name, integer ? String(Number(v)) : v]), name === "n") };
  }
  if (name === "n") return { where: anyOf(values.map(() => `${key} = to_jsonb(?::text)`), values.map((v) => [cf.name, v]), true) };
  const look = STRING_LOOKUPS[name];
  if (look.op === "ILIKE") return { where: anyOf(values.map(() => `${text} ILIKE ?`), values.map((v) => [cf.name, look.wrap(v)]), look.negate) };
  return {
    where: anyOf(values.map(() => `CASE WHEN (SELECT ${REGEX_IS_VALID}(?)) THEN ${text} ${look.op} ? ELSE false END`), values.map((v) => [v, cf.name, v]), look.negate),
    checks: [{ ...firstValue(values, `NOT ${REGEX_IS_VALID}(u.v)`), problem: (value) => ({ code: "filter_invalid_regex", value }) }],
  };
}

export const customFieldFilters: DynamicFilterProvider = async (db, m, params) => {
  const f = m.fields.find((x): x is CustomFieldsField => x.kind === "customFields");
  if (!f?.definitions || !params.some((p) => p.startsWith("cf_"))) return null;
  const { rows } = await db.raw(`SELECT d.name, d.type, d.filter_logic ${definitionsOf(f.definitions, "?")} AND d.filter_logic <> 'disabled'`, [m.key]);
  const byParam = new Map<string, { cf: FilterDefinition; lookup?: string }>();
  for (const cf of rows as FilterDefinition[]) {
    byParam.set(`cf_${cf.name}`, { cf });
    for (const name of lookupsOf(cf.type)) byParam.set(`cf_${cf.name}__${name}`, { cf, lookup: name });
  }
  const data = col("t0", f.column);
  const filters: DynamicFilters = {
    owns: (param) => byParam.has(param),
    plan(param, raw) {
      const { cf, lookup: name } = byParam.get(param)!;
      const values = raw.filter((v) => v !== "");
      if (!values.length) return { where: () => undefined };
      // The seed's rule: one value per plain custom-field filter (Nautobot would read the last).
      if (!name && values.length > 1) return [{ code: "filter_single_value" }];
      return name ? lookup(data, cf, name, values) : plain(data, cf, values[0]);
    },
  };
  return filters;
};

