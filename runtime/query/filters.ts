// Filter sets: turns list query parameters into WHERE clauses for a model, following the
// descriptor's filter table. Planning is synchronous and asks no database: what only the
// data can tell (does this slug or tag exist, is this regular expression valid) becomes
// checks, SQL expressions the caller evaluates in the same statement as the read, so a
// filtered list is one round trip. Errors are problems keyed by parameter (→ 400).
// Repeated parameters OR their values; different parameters AND; repeated `tag` ANDs.
import type { Knex } from "knex";
import {
  FILTER_FALSE, FILTER_TRUE, storedColumn, type ChoiceField, type ContentTypesField, type FilterDescriptor, type FkField, type M2mField, type ModelDescriptor, type ScalarField, type StatusField, type TagsField,
  type TreeParentField,
} from "../descriptor.js";
import { labelOf, linkedTypes } from "../kinds/content-types.js";
import { subtreeIds } from "../kinds/tree.js";
import type { ModelIndex } from "../models.js";
import { parseInterface, parseNetwork, partialNetworks } from "./network.js";
import { col, ident, literal } from "./sql.js";
import { truncatedDecimal } from "../text/python.js";
import type { Problem } from "../problems.js";

export type FilterErrors = Record<string, Problem[]>;
type Where = (qb: Knex.QueryBuilder) => void;

/**
 * What the data must confirm: `sql` gives the first value the database refutes (text), or
 * NULL; `problem` is the parameter's error for that value.
 */
export interface FilterCheck {
  param: string;
  sql: string;
  bindings: unknown[];
  problem: (value: string) => Problem;
}

/** A compiled filter set: the WHERE clauses, and the checks to evaluate with them. */
export interface FilterPlan {
  apply: Where;
  checks: FilterCheck[];
  /** The parameters in request order, so errors keep the order the client sent them in. */
  order: string[];
  /**
   * Whether how many rows match depends on the values beyond what the planner's statistics of
   * an equality tell (ranges, containment, patterns, searches): such a statement is best
   * planned for its values rather than once for all.
   */
  valueSensitive: boolean;
  /** Whether the plan selects every row and checks nothing (no filter was given): its statements can be built once. */
  empty?: boolean;
}

/**
 * Filter kinds that, as plain or negated equality, select about as many rows whatever the value;
 * and those whose value only chooses the statement's text, binding nothing (`present`,
 * `hasRelated`: each text is planned for exactly what it asks).
 */
const EQUALITY_KINDS = new Set(["uuid", "string", "number", "boolean", "choice", "fk", "related", "tag", "status", "contentTypes", "family", "present", "hasRelated"]);

/** The result of planning: errors found without the database, and the plan (checks still to run). */
export type Compiled = { errors: FilterErrors; plan: FilterPlan };

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The ISO forms Django's DateTimeField parses: a date, optionally a time and an offset. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Integer filter values are bound as bigint: the widest integer column, and int4/int2 columns compare with it through their index. */
const BIGINT_MAX = 2n ** 63n - 1n;
const BIGINT_MIN = -(2n ** 63n);
const TRUE = new Set(FILTER_TRUE);
const FALSE = new Set(FILTER_FALSE);

export const isUuid = (v: string): boolean => UUID.test(v);

/** The largest key a serial id column holds (PostgreSQL `integer`). */
export const MAX_SERIAL = 2_147_483_647;

/** A written id of a row with integer keys (a whole number, or its digits), as text; null when it cannot be one. */
export function integerKey(v: unknown): string | null {
  const text = typeof v === "number" && Number.isInteger(v) && v >= 0 ? String(v) : typeof v === "string" && /^\d+$/.test(v) ? v : null;
  return text !== null && Number(text) <= MAX_SERIAL ? String(Number(text)) : null;
}

/** A UUID already in the form PostgreSQL gives back: what clients send, almost always. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `0123…` or `0123-…` → the canonical lower-case, hyphenated form PostgreSQL gives back. */
export function canonicalUuid(id: string): string {
  // Taken as it is, rather than rebuilt from six new strings: a bulk body's references are thousands.
  if (CANONICAL_UUID.test(id)) return id;
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const invalidChoice = (value: string): Problem => ({ code: "filter_invalid_choice", value });

/** A boolean filter's value (the last one given), or its error. */
function truth(values: string[]): boolean | Problem[] {
  const v = values[values.length - 1];
  return TRUE.has(v) ? true : FALSE.has(v) ? false : [invalidChoice(v)];
}

/** A real calendar day: PostgreSQL refuses 2021-02-30, so it must never reach the query. */
function isCalendarDate(m: RegExpExecArray | null): boolean {
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

export const STRING_LOOKUPS: Record<string, { op: string; wrap: (v: string) => string; negate: boolean }> = {
  ic: { op: "ILIKE", wrap: (v) => `%${likeEscape(v)}%`, negate: false },
  nic: { op: "ILIKE", wrap: (v) => `%${likeEscape(v)}%`, negate: true },
  isw: { op: "ILIKE", wrap: (v) => `${likeEscape(v)}%`, negate: false },
  nisw: { op: "ILIKE", wrap: (v) => `${likeEscape(v)}%`, negate: true },
  iew: { op: "ILIKE", wrap: (v) => `%${likeEscape(v)}`, negate: false },
  niew: { op: "ILIKE", wrap: (v) => `%${likeEscape(v)}`, negate: true },
  ie: { op: "ILIKE", wrap: likeEscape, negate: false },
  nie: { op: "ILIKE", wrap: likeEscape, negate: true },
  re: { op: "~", wrap: (v) => v, negate: false },
  nre: { op: "~", wrap: (v) => v, negate: true },
  ire: { op: "~*", wrap: (v) => v, negate: false },
  nire: { op: "~*", wrap: (v) => v, negate: true },
};

export const COMPARE: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

/** OR of one predicate per value; negated lookups exclude every match (NULLs stay in). */
export function anyOf(sql: string[], bindings: unknown[][], negate: boolean): Where {
  const body = sql.map((s) => `(${s})`).join(" OR ");
  const flat = bindings.flat();
  return negate
    ? (qb) => qb.whereRaw(`NOT coalesce((${body}), false)`, flat as Knex.RawBinding[])
    : (qb) => qb.whereRaw(`(${body})`, flat as Knex.RawBinding[]);
}

/**
 * `column` equal to one of `values` (of SQL type `type`): one value as a plain equality, as
 * PostgreSQL makes of Django's `IN (…)` of one. `= ANY(array)` tests each row through the
 * array: a count of 20,000 prefixes with `status=active` took 0.4 ms more.
 */
function equalsAny(column: string, type: string, values: string[], negate: boolean): Where {
  return values.length === 1 ? anyOf([`${column} = ?::${type}`], [values], negate) : anyOf([`${column} = ANY(?::${type}[])`], [[values]], negate);
}

/** One parameter planned: its WHERE clause and the checks it needs (without `param`, added by compile). */
export interface Planned {
  where: Where;
  checks?: Array<Omit<FilterCheck, "param">>;
}

/** Runtime-owned SQL function (runtime/db/runtime-migrations.ts): whether PostgreSQL accepts a regular expression. */
export const REGEX_IS_VALID = "armature_regex_is_valid";

/**
 * Filters named by rows rather than by the descriptor (custom fields…), with their
 * definitions loaded for this request: which parameters are theirs, and one planned for its
 * values (as given, blanks included) or its errors.
 */
export interface DynamicFilters {
  owns(param: string): boolean;
  plan(param: string, values: string[]): Planned | Problem[];
}

/**
 * Where dynamic filters come from: loads, once per request, the ones `params` may name on `m`
 * (null: none). A provider may instead leave what the data must confirm (that a name applies,
 * that values exist) to its plans' checks, evaluated in the list's own statement.
 */
export type DynamicFilterProvider = (db: Knex | Knex.Transaction, m: ModelDescriptor, params: string[], opts: { strict: boolean }) => Promise<DynamicFilters | null>;

export interface FilterOptions {
  strict: boolean;
  /** Parameters that are not filters (pagination, brief, version…). */
  reserved: Set<string>;
  /** Only these of the model's filters are offered (a listing's); all when absent. */
  only?: Set<string>;
  /** Filters named by rows, consulted for a parameter the descriptor does not name. */
  dynamic?: DynamicFilters[];
}

/** Select-list entries that evaluate the checks, named `check_<n>` (bind them with `db.raw`). */
export function checkColumns(checks: FilterCheck[]): Array<{ sql: string; bindings: unknown[] }> {
  return checks.map((c, i) => ({ sql: `(${c.sql}) AS ${ident(`check_${i}`)}`, bindings: c.bindings }));
}

/**
 * Planning errors and the checks that failed in `row` (the statement's result), keyed in
 * the order the parameters came; null when there are none.
 */
export function filterErrors(plan: FilterPlan, planning: FilterErrors, row: Record<string, unknown> | undefined): FilterErrors | null {
  const found: FilterErrors = Object.create(null);
  plan.checks.forEach((c, i) => {
    const value = row?.[`check_${i}`];
    if (typeof value === "string" && !planning[c.param] && !found[c.param]) found[c.param] = [c.problem(value)];
  });
  const errors: FilterErrors = Object.create(null);
  for (const param of plan.order) {
    const list = planning[param] ?? found[param];
    if (list) errors[param] = list;
  }
  return Object.keys(errors).length ? errors : null;
}

/** The first of `values` (in the order given) for which `missing` (SQL over the text `v`) holds. */
export function firstValue(values: string[], missing: string, bindings: unknown[] = []): { sql: string; bindings: unknown[] } {
  return {
    sql: `SELECT u.v FROM unnest(?::text[]) WITH ORDINALITY u(v, o) WHERE ${missing} ORDER BY u.o LIMIT 1`,
    bindings: [values, ...bindings],
  };
}

/**
 * The key each of `values` names when compared as `id::text = lower(value)` would: the value
 * lower-cased where it is a key's own text (a hyphenated UUID; a whole number as PostgreSQL
 * writes it), else null, which names no row. Bound as the key's type (`keyType`), the match is
 * an index probe. Compared as text, it read the whole table, and a check did so once for each
 * value: 100 interface ids against 2,000 interfaces took 55 ms.
 */
export function keysNamed(values: string[], integerKeys: boolean): { keys: Array<string | null>; keyType: string } {
  const key = integerKeys
    ? (v: string) => (/^(0|-?[1-9][0-9]*)$/.test(v) && BigInt(v) >= BIGINT_MIN && BigInt(v) <= BIGINT_MAX ? v : null)
    : (v: string) => (CANONICAL_UUID.test(v.toLowerCase()) ? v.toLowerCase() : null);
  return { keys: values.map(key), keyType: integerKeys ? "bigint" : "uuid" };
}

/**
 * `firstValue` of rows named by id or by a key field: the first of `values` that names no row
 * of any of `tables` (SQL names), each value matched by the key it names (`keysNamed`) and,
 * with `natural`, by that column's text.
 */
export function firstUnnamed(tables: readonly string[], values: string[], integerKeys: boolean, natural?: string): { sql: string; bindings: unknown[] } {
  const { keys, keyType } = keysNamed(values, integerKeys);
  const unnamed = tables.map((t) => `NOT EXISTS (SELECT 1 FROM ${t} x WHERE x.id = u.k)` +
    (natural ? ` AND NOT EXISTS (SELECT 1 FROM ${t} x WHERE ${col("x", natural)}::text = u.v)` : ""));
  return {
    sql: `SELECT u.v FROM unnest(?::text[], ?::${keyType}[]) WITH ORDINALITY u(v, k, o) WHERE ${unnamed.join(" AND ")} ORDER BY u.o LIMIT 1`,
    bindings: [values, keys],
  };
}

export class FilterCompiler {
  private readonly tables = new Map<string, Map<string, FilterDescriptor>>();

  constructor(private readonly index: ModelIndex) {
    for (const m of index.api.models) this.tables.set(m.key, new Map(m.filters.map((f) => [f.param, f])));
  }

  compile(m: ModelDescriptor, params: Map<string, string[]>, opts: FilterOptions): Compiled {
    const table = this.tables.get(m.key)!;
    // Keyed by what the client sent: no prototype, so "__proto__" is a key like any other.
    const errors: FilterErrors = Object.create(null);
    const wheres: Where[] = [];
    const checks: FilterCheck[] = [];
    const order: string[] = [];
    let valueSensitive = false;
    for (const [param, values] of params) {
      if (opts.reserved.has(param)) continue;
      order.push(param);
      const filter = opts.only && !opts.only.has(param) ? undefined : table.get(param);
      const dynamic = filter || opts.only ? undefined : opts.dynamic?.find((d) => d.owns(param));
      if (!filter || !EQUALITY_KINDS.has(filter.kind) || !["exact", "n"].includes(filter.lookup)) valueSensitive = true;
      if (!filter && !dynamic) {
        if (opts.strict) errors[param] = [{ code: "unknown_filter" }];
        continue;
      }
      // PostgreSQL text cannot hold NUL; Django's form fields refuse it with this message.
      if (values.some((v) => v.includes("\0"))) {
        errors[param] = [{ code: "null_characters" }];
        continue;
      }
      const result = filter ? this.one(m, filter, values) : dynamic!.plan(param, values);
      if (Array.isArray(result)) {
        if (result.length) errors[param] = result;
        continue;
      }
      wheres.push(result.where);
      for (const c of result.checks ?? []) checks.push({ ...c, param });
    }
    return { errors, plan: { apply: (qb) => { for (const w of wheres) w(qb); }, checks, order, valueSensitive, empty: !wheres.length && !checks.length } };
  }

  private one(m: ModelDescriptor, f: FilterDescriptor, raw: string[]): Planned | Problem[] {
    const values = raw.filter((v) => v !== "");
    if (values.length === 0) return { where: () => undefined };
    if (f.via || f.alternatives) {
      const paths = [{ field: f.field!, via: f.via }, ...(f.alternatives ?? [])].map((p) => this.linkPath(m, p));
      return this.fk(f, this.named(paths[0].field), paths, values, f.lookup === "n");
    }
    const field = f.field ? this.index.field(m, f.field) : undefined;
    const stored = field && storedColumn(field);
    const column = stored && stored !== "id" ? col("t0", stored) : "t0.id";
    const negate = f.lookup === "n";
    const plain = (where: Where): Planned => ({ where });
    switch (f.kind) {
      case "uuid": {
        const bad = values.find((v) => !isUuid(v));
        if (bad) return [{ code: "filter_invalid_uuid" }];
        return plain(equalsAny(column, "uuid", values, negate));
      }
      case "string": {
        const look = STRING_LOOKUPS[f.lookup];
        if (!look) return plain(equalsAny(column, "text", values, negate));
        if (look.op === "ILIKE") return plain(anyOf(values.map(() => `${column}::text ${look.op} ?`), values.map((v) => [look.wrap(v)]), look.negate));
        // PostgreSQL judges the expression: an invalid one matches nothing and is reported by
        // the check, in the same statement, instead of failing it.
        return {
          // The validity sub-select runs once per statement, not once per row.
          where: anyOf(values.map(() => `CASE WHEN (SELECT ${REGEX_IS_VALID}(?)) THEN ${column}::text ${look.op} ? ELSE false END`), values.map((v) => [v, v]), look.negate),
          checks: [{ ...firstValue(values, `NOT ${REGEX_IS_VALID}(u.v)`), problem: (value) => ({ code: "filter_invalid_regex", value }) }],
        };
      }
      case "number": {
        // Values are checked against the column type here, so the database never sees one it refuses.
        const integer = (field?.kind === "scalar" && field.type === "integer") || (field?.kind === "id" && !!field.integer);
        if (integer) {
          const bad = values.find((v) => !INTEGER.test(v.trim()));
          if (bad) return [{ code: "filter_whole_number" }];
          if (values.some((v) => BigInt(v.trim()) > BIGINT_MAX)) return [{ code: "max_value", limit: BIGINT_MAX }];
          if (values.some((v) => BigInt(v.trim()) < BIGINT_MIN)) return [{ code: "min_value", limit: BIGINT_MIN }];
        } else if (values.some((v) => v.trim() === "" || !Number.isFinite(Number(v)))) return [{ code: "filter_number" }];
        const cast = integer ? "bigint" : "float8";
        const nums = values.map((v) => (integer ? BigInt(v.trim()).toString() : String(Number(v))));
        if (COMPARE[f.lookup]) return plain(anyOf(nums.map(() => `${column} ${COMPARE[f.lookup]} ?::${cast}`), nums.map((n) => [n]), false));
        return plain(anyOf(nums.map(() => `${column} = ?::${cast}`), nums.map((n) => [n]), negate));
      }
      case "date": case "datetime": {
        const isDate = f.kind === "date";
        const bad = values.find((v) => !isCalendarDate((isDate ? DATE : DATETIME).exec(v)));
        if (bad) return [{ code: isDate ? "filter_date" : "filter_datetime" }];
        const op = COMPARE[f.lookup] ?? "=";
        const cast = isDate ? "date" : "timestamptz";
        return plain(anyOf(values.map(() => `${column} ${op} ?::${cast}`), values.map((v) => [v]), negate));
      }
      case "boolean": {
        const value = truth(values);
        return Array.isArray(value) ? value : plain((qb) => qb.whereRaw(`${column} = ?`, [value]));
      }
      case "choice": {
        const allowed = new Set((field as ChoiceField).choices.map(([v]) => String(v)));
        const bad = values.find((v) => !allowed.has(v) && v !== "null");
        if (bad) return [invalidChoice(bad)];
        const sql = values.map((v) => (v === "null" ? `(${column} IS NULL OR ${column}::text = '')` : `${column}::text = ?`));
        return plain(anyOf(sql, values.map((v) => (v === "null" ? [] : [v])), negate));
      }
      case "fk": {
        if (field?.kind !== "m2m") return this.fk(f, this.named(field as FkField | TreeParentField), [{ column }], values, negate);
        // A many-to-many link matches when any linked row is named; "null" when none is linked.
        const t = field.through;
        const linked = (cond: string) => `EXISTS (SELECT 1 FROM ${ident(t.table)} j WHERE ${col("j", t.source)} = t0.id${cond})`;
        return this.fk(f, this.named(field), [{ column: "", match: (ids) => linked(` AND ${col("j", t.target)} = ANY(${ids})`), none: `NOT ${linked("")}` }], values, negate);
      }
      case "method": {
        const condition = m.hooks?.filters?.[f.param];
        if (!condition) throw new Error(`${m.key}: the hook module gives no filters.${f.param}`);
        if (f.takes === "boolean") {
          const value = truth(values);
          return Array.isArray(value) ? value : plain((qb) => qb.whereRaw(condition({ alias: "t0", model: m, value })));
        }
        if (f.takes === "number") {
          // A decimal as Django's DecimalField reads one, passed on as a double so no exponent overflows numeric.
          if (values.some((v) => !DECIMAL.test(v.trim()) || !Number.isFinite(Number(v)))) return [{ code: "filter_number" }];
          const array = `ARRAY[${values.map((v) => literal(String(Number(v)))).join(", ")}]::numeric[]`;
          return plain((qb) => qb.whereRaw(condition({ alias: "t0", model: m, values: array })));
        }
        if (f.takes === "string" || f.takes === "uuid") {
          const bad = f.takes === "uuid" ? values.find((v) => !isUuid(v)) : f.choices && values.find((v) => !f.choices!.includes(v));
          if (bad) return [f.takes === "uuid" ? { code: "filter_invalid_uuid" } : invalidChoice(bad)];
          // Quoted literals (NUL is refused above), so the hook may place the array anywhere in
          // its SQL; a `?` is escaped from knex's placeholders.
          const array = `ARRAY[${values.map((v) => literal(v).replace(/\?/g, "\\?")).join(", ")}]::${f.takes === "uuid" ? "uuid" : "text"}[]`;
          return plain((qb) => qb.whereRaw(condition({ alias: "t0", model: m, values: array })));
        }
        // Every value names objects: "null" is no object here, as Nautobot's method filters.
        const target = { model: this.index.model(f.takes!), expand: false, nullable: false };
        return this.fk(f, target, [{ column: "", match: (ids) => condition({ alias: "t0", model: m, ids }) }], values, negate);
      }
      case "related": return this.related(f.related!, values, negate);
      case "hasRelated": {
        const value = truth(values);
        if (Array.isArray(value)) return value;
        const r = f.related!;
        const exists = `EXISTS (SELECT 1 FROM ${ident(r.table)} r WHERE ${col("r", r.column)} = t0.id)`;
        return plain((qb) => qb.whereRaw(value ? exists : `NOT ${exists}`));
      }
      case "present": {
        const value = truth(values);
        if (Array.isArray(value)) return value;
        const isSet = (name: string) => {
          const x = this.index.field(m, name)!;
          if (x.kind === "m2m") return `EXISTS (SELECT 1 FROM ${ident(x.through.table)} j WHERE ${col("j", x.through.source)} = t0.id)`;
          const c = col("t0", storedColumn(x)!);
          return x.kind === "scalar" && x.type === "boolean" ? `coalesce(${c}, false)` : `${c} IS NOT NULL`;
        };
        const set = (f.fields ?? [f.field!]).map(isSet).join(" OR ");
        return plain((qb) => qb.whereRaw(value ? `(${set})` : `NOT (${set})`));
      }
      case "tag": return this.tags(m, values, negate);
      case "status": {
        // Any existing status is a valid value (Nautobot's StatusFilter queries them all), as
        // the rows say when the statement runs; the column holds the slug, so this is an equality.
        const table = (field as StatusField).statuses.table;
        return {
          where: equalsAny(column, "text", values, negate),
          checks: [{ ...firstValue(values, `NOT EXISTS (SELECT 1 FROM ${ident(table)} s WHERE s.slug = u.v)`), problem: invalidChoice }],
        };
      }
      case "contentTypes": {
        // Every value must be named (Nautobot's conjoined ContentTypeMultipleChoiceFilter); negated, none may be.
        const ct = field as ContentTypesField;
        const bad = values.find((v) => !ct.models.includes(v));
        if (bad) return [invalidChoice(bad)];
        const names = `EXISTS (SELECT 1 ${linkedTypes(ct.through, ct.registry, "t0.id")} AND ${labelOf(ct.registry, "r")} = ?)`;
        return plain((qb) => { for (const v of values) qb.whereRaw(negate ? `NOT ${names}` : names, [v]); });
      }
      case "q": {
        const v = raw.join(" ").trim();
        if (!v) return { where: () => undefined };
        const sql: string[] = [];
        const binds: unknown[][] = [];
        for (const n of f.fields!) {
          const x = this.index.field(m, n) as ScalarField | ContentTypesField;
          // Content types match by model name (Nautobot's `content_types__model`).
          if (x.kind === "contentTypes") {
            sql.push(`EXISTS (SELECT 1 ${linkedTypes(x.through, x.registry, "t0.id")} AND ${col("r", x.registry.model)} ILIKE ?)`);
            binds.push([`%${likeEscape(v)}%`]);
            continue;
          }
          const c = col("t0", storedColumn(x)!);
          // A text containing the search holds all its three-character pieces: the index finds those rows first.
          if (x.type !== "integer" && x.searchIndexed && v.length >= 3) {
            sql.push(`armature_trigrams(${c}) @> armature_trigrams(?) AND ${c} ILIKE ?`);
            binds.push([v, `%${likeEscape(v)}%`]);
          } else if (x.type !== "integer") { sql.push(`${c} ILIKE ?`); binds.push([`%${likeEscape(v)}%`]); }
          // As a numeric, so a number beyond the column's range matches nothing rather than failing.
          else if (/^[+-]?\d+$/.test(v)) { sql.push(`${c} = ?::numeric`); binds.push([v]); }
        }
        for (const s of f.searched ?? []) {
          sql.push(`EXISTS (SELECT 1 FROM ${ident(s.table)} r WHERE ${col("r", s.column)} = t0.id AND ${col("r", s.key)} ILIKE ?)`);
          binds.push([`%${likeEscape(v)}%`]);
        }
        const uuidKeys = m.fields.some((x) => x.kind === "id" && !x.integer);
        if (isUuid(v) && uuidKeys) { sql.push("t0.id = ?::uuid"); binds.push([v]); }
        // The spec's address field is also searched by partial address (10.1 → inside 10.1.0.0/16).
        const net = f.field ? this.index.field(m, f.field) as ScalarField : undefined;
        if (net) {
          const lhs = net.type === "ip" ? `host(${col("t0", net.column)})::inet` : col("t0", net.column);
          for (const n of partialNetworks(v)) { sql.push(`${lhs} <<= ?::inet`); binds.push([n]); }
        }
        return plain(anyOf(sql, binds, false));
      }
      case "network": {
        const out = this.network(f, column, values);
        return Array.isArray(out) ? out : plain(out);
      }
      case "contains": {
        // One number (the last given), as Django's DecimalField, truncated to the integer an item would be.
        const item = truncatedDecimal(values[values.length - 1]);
        if (item === null) return [{ code: "filter_number" }];
        return plain((qb) => (item === "huge" ? qb.whereRaw("false") : qb.whereRaw(`${column} @> ?::jsonb`, [`[${item}]`])));
      }
    }
  }

  /**
   * A foreign key reached from the row: its own (`via` absent), or a related row's, read
   * through the chain of foreign keys `via` names (null when any link is unset).
   */
  private linkPath(m: ModelDescriptor, p: { field: string; via?: string[] }): { field: FkField | TreeParentField; column: string } {
    let model = m;
    let column = col("t0", "id");
    for (const [i, name] of [...(p.via ?? []), p.field].entries()) {
      const link = this.index.field(model, name) as FkField | TreeParentField;
      column = i === 0 ? col("t0", link.column) : `(SELECT ${col(`v${i}`, link.column)} FROM ${ident(model.table)} v${i} WHERE v${i}.id = ${column})`;
      if (name === p.field) return { field: link, column };
      model = this.index.model(link.target);
    }
    throw new Error(`filter path ends before ${p.field}`);
  }

  /** The objects a link's filter names: its target, with descendants on a tree (except the tree's own parent link). */
  private named(field: FkField | TreeParentField | M2mField) {
    const model = this.index.model(field.target);
    return { model, expand: !!model.features.tree && field.kind === "fk", nullable: true };
  }

  /**
   * Rows whose foreign key at any of `paths` (all to one model) names one of `values`, by id
   * or natural key (`null` for no object, when the link is nullable). The named rows are a
   * sub-select, with descendants when `link.expand`; a path may say itself how it matches an
   * id array and how it has none (a many-to-many link); a check reports the first value that
   * names no object.
   */
  private fk(
    f: FilterDescriptor,
    link: { model: ModelDescriptor; expand: boolean; nullable: boolean },
    paths: Array<{ column: string; match?: (ids: string) => string; none?: string }>,
    values: string[],
    negate: boolean,
  ): Planned | Problem[] {
    const target = link.model;
    const naturalField = f.idOnly ? undefined : target.naturalKey ? this.index.field(target, target.naturalKey) : undefined;
    const natural = naturalField && storedColumn(naturalField);
    const wantsNull = link.nullable && values.includes("null");
    const given = link.nullable ? values.filter((v) => v !== "null") : values;
    // Ids of the target's kind: UUIDs, or whole numbers (Django's AutoField) for integer keys.
    const integerKeys = this.index.integerKeys(target);
    const isKey = integerKeys ? (v: string) => integerKey(v) !== null : isUuid;
    if (f.idOnly || !natural) {
      const bad = given.find((v) => !isKey(v));
      // Django's ModelMultipleChoiceField refuses a value its key field cannot read so.
      if (bad) return [integerKeys ? { code: "filter_invalid_value", value: bad } : f.idOnly ? { code: "filter_invalid_uuid" } : invalidChoice(bad)];
    }
    const { keys, keyType } = keysNamed(given, integerKeys);
    // The keys matched: an integer as integerKey reads it, a UUID only in its own form.
    const ids = (integerKeys ? given.map(integerKey) : keys).filter((v) => v !== null);
    const sql: string[] = [];
    const binds: unknown[][] = [];
    if (given.length) {
      const table = ident(target.table);
      const roots = `SELECT x.id FROM ${table} x WHERE x.id = ANY(?::${keyType}[])${natural ? ` OR ${col("x", natural)}::text = ANY(?::text[])` : ""}`;
      const rootBinds = natural ? [ids, given] : [ids];
      // ANY(ARRAY(…)) is computed once, before the scan, so the column's index still serves the match.
      const named = link.expand ? subtreeIds(target, roots) : `ARRAY(${roots})`;
      for (const { column, match } of paths) {
        sql.push(match ? match(named) : `${column} = ANY(${named})`);
        binds.push(rootBinds);
      }
    }
    if (wantsNull) { sql.push(paths.map(({ column, none }) => none ?? `${column} IS NULL`).join(" AND ")); binds.push([]); }
    return {
      where: anyOf(sql, binds, negate),
      checks: given.length
        ? [{ ...firstUnnamed([ident(target.table)], given, integerKeys, natural), problem: invalidChoice }]
        : [],
    };
  }

  /**
   * Objects that rows of another model (named by id or by their key field) point to; a check
   * reports the first value that names no row.
   */
  private related(r: NonNullable<FilterDescriptor["related"]>, values: string[], negate: boolean): Planned {
    const table = ident(r.table);
    const integerKeys = this.index.api.models.some((m) => m.table === r.table && this.index.integerKeys(m));
    const { keys, keyType } = keysNamed(values, integerKeys);
    const pointing = `SELECT ${col("r", r.column)} FROM ${table} r WHERE ${col("r", r.column)} IS NOT NULL AND ` +
      `(r.id = ANY(?::${keyType}[])${r.key ? ` OR ${col("r", r.key)}::text = ANY(?::text[])` : ""})`;
    const ids = keys.filter((k) => k !== null);
    return {
      where: anyOf([`t0.id = ANY(ARRAY(${pointing}))`], [r.key ? [ids, values] : [ids]], negate),
      checks: [{ ...firstUnnamed([table], values, integerKeys, r.key), problem: invalidChoice }],
    };
  }

  /** Objects carrying every named tag (or, negated, none of them); a check reports an unknown slug. */
  private tags(m: ModelDescriptor, slugs: string[], negate: boolean): Planned {
    const tagsField = m.fields.find((x): x is TagsField => x.kind === "tags")!;
    const tagModel = this.index.model(tagsField.target);
    const through = tagsField.through;
    const exists = `EXISTS (SELECT 1 FROM ${ident(through.table)} j JOIN ${ident(tagModel.table)} g ON g.id = ${col("j", through.target)} ` +
      `WHERE ${col("j", through.type)} = ? AND ${col("j", through.source)} = t0.id AND g.slug = ?)`;
    return {
      where: negate
        ? (qb) => { for (const s of slugs) qb.whereRaw(`NOT ${exists}`, [m.key, s]); }
        : (qb) => { for (const s of slugs) qb.whereRaw(exists, [m.key, s]); },
      checks: [{ ...firstValue(slugs, `NOT EXISTS (SELECT 1 FROM ${ident(tagModel.table)} g WHERE g.slug = u.v)`), problem: invalidChoice }],
    };
  }

  private network(f: FilterDescriptor, column: string, values: string[]): Where | Problem[] {
    switch (f.network) {
      case "family": {
        const bad = values.find((v) => v !== "4" && v !== "6");
        if (bad) return [invalidChoice(bad)];
        return anyOf(values.map(() => `family(${column}) = ?`), values.map((v) => [Number(v)]), false);
      }
      case "mask_length": case "mask_length__gte": case "mask_length__lte": {
        const bad = values.find((v) => !/^\d+$/.test(v) || Number(v) > 128);
        if (bad) return [{ code: "filter_mask_length" }];
        const op = f.network === "mask_length" ? "=" : f.network === "mask_length__gte" ? ">=" : "<=";
        return anyOf(values.map(() => `masklen(${column}) ${op} ?`), values.map((v) => [Number(v)]), false);
      }
      case "address": {
        const parsed = values.map(parseInterface);
        if (parsed.includes(null)) return [{ code: "filter_ip_address" }];
        return anyOf(parsed.map((p) => (p!.includes("/") ? `${column} = ?::inet` : `host(${column}) = ?`)), parsed.map((p) => [p]), false);
      }
      default: {
        const parsed = values.map(parseNetwork);
        if (parsed.includes(null)) return [{ code: "filter_network" }];
        const op = { net_equals: "=", net_contained: "<<", net_contained_or_equal: "<<=", net_contains_or_equals: ">>=", net_host_contained: "<<=" }[f.network as string] ?? "=";
        const lhs = f.network === "net_host_contained" ? `host(${column})::inet` : column;
        return anyOf(parsed.map(() => `${lhs} ${op} ?::inet`), parsed.map((p) => [p]), false);
      }
    }
  }
}
