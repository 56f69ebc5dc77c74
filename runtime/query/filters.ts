// Filter sets: turns list query parameters into WHERE clauses for a model, following the
// descriptor's filter table. Parsing and value checks come first and collect every error
// keyed by parameter (→ 400); only a fully valid request yields an `apply` function.
// Repeated parameters OR their values; different parameters AND; repeated `tag` ANDs.
import type { Knex } from "knex";
import {
  storedColumn, type ChoiceField, type FilterDescriptor, type FkField, type ModelDescriptor, type ScalarField, type TagsField, type TreeParentField,
} from "../descriptor.js";
import { parentColumn } from "../kinds/tree.js";
import type { ModelIndex } from "../models.js";
import { parseInterface, parseNetwork, partialNetworks } from "./network.js";
import { col, ident } from "./sql.js";

export type FilterErrors = Record<string, string[]>;
type Where = (qb: Knex.QueryBuilder) => void;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The ISO forms Django's DateTimeField parses: a date, optionally a time and an offset. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;
const INTEGER = /^[+-]?\d+$/;
/** Integer filter values are bound as bigint: the widest integer column, and int4/int2 columns compare with it through their index. */
const BIGINT_MAX = 2n ** 63n - 1n;
const BIGINT_MIN = -(2n ** 63n);
const TRUE = new Set(["true", "True", "1", "yes", "on"]);
const FALSE = new Set(["false", "False", "0", "no", "off"]);

export const isUuid = (v: string): boolean => UUID.test(v);

const invalidChoice = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;

/** A real calendar day: PostgreSQL refuses 2021-02-30, so it must never reach the query. */
function isCalendarDate(m: RegExpExecArray | null): boolean {
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

const STRING_LOOKUPS: Record<string, { op: string; wrap: (v: string) => string; negate: boolean }> = {
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

const COMPARE: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

/** OR of one predicate per value; negated lookups exclude every match (NULLs stay in). */
function anyOf(sql: string[], bindings: unknown[][], negate: boolean): Where {
  const body = sql.map((s) => `(${s})`).join(" OR ");
  const flat = bindings.flat();
  return negate
    ? (qb) => qb.whereRaw(`NOT coalesce((${body}), false)`, flat as Knex.RawBinding[])
    : (qb) => qb.whereRaw(`(${body})`, flat as Knex.RawBinding[]);
}

export interface FilterOptions {
  strict: boolean;
  /** Parameters that are not filters (pagination, brief, version…). */
  reserved: Set<string>;
}

export class FilterCompiler {
  private readonly tables = new Map<string, Map<string, FilterDescriptor>>();

  constructor(private readonly index: ModelIndex) {
    for (const m of index.api.models) this.tables.set(m.key, new Map(m.filters.map((f) => [f.param, f])));
  }

  async compile(db: Knex | Knex.Transaction, m: ModelDescriptor, params: Map<string, string[]>, opts: FilterOptions):
    Promise<{ errors: FilterErrors } | { apply: Where }> {
    const table = this.tables.get(m.key)!;
    // Keyed by what the client sent: no prototype, so "__proto__" is a key like any other.
    const errors: FilterErrors = Object.create(null);
    const wheres: Where[] = [];
    for (const [param, values] of params) {
      if (opts.reserved.has(param)) continue;
      const filter = table.get(param);
      if (!filter) {
        if (opts.strict) errors[param] = ["Unknown filter field"];
        continue;
      }
      // PostgreSQL text cannot hold NUL; Django's form fields refuse it with this message.
      if (values.some((v) => v.includes("\0"))) {
        errors[param] = ["Null characters are not allowed."];
        continue;
      }
      const result = await this.one(db, m, filter, values);
      if (typeof result === "function") wheres.push(result);
      else if (result.length) errors[param] = result;
    }
    if (Object.keys(errors).length) return { errors };
    return { apply: (qb) => { for (const w of wheres) w(qb); } };
  }

  private async one(db: Knex | Knex.Transaction, m: ModelDescriptor, f: FilterDescriptor, raw: string[]): Promise<Where | string[]> {
    const values = raw.filter((v) => v !== "");
    if (values.length === 0) return () => undefined;
    if (f.via) {
      // The related row's foreign key, read through this row's own: null when either is unset.
      const via = this.index.field(m, f.via) as FkField;
      const related = this.index.model(via.target);
      const field = this.index.field(related, f.field!) as FkField | TreeParentField;
      const column = `(SELECT ${col("v", field.column)} FROM ${ident(related.table)} v WHERE v.id = ${col("t0", via.column)})`;
      return this.fk(db, f, field, column, values, f.lookup === "n");
    }
    const field = f.field ? this.index.field(m, f.field) : undefined;
    const stored = field && storedColumn(field);
    const column = stored && stored !== "id" ? col("t0", stored) : "t0.id";
    const negate = f.lookup === "n";
    switch (f.kind) {
      case "uuid": {
        const bad = values.find((v) => !isUuid(v));
        if (bad) return ["Enter a valid UUID."];
        return anyOf([`${column} = ANY(?::uuid[])`], [[values]], negate);
      }
      case "string": {
        const look = STRING_LOOKUPS[f.lookup];
        if (!look) return anyOf([`${column} = ANY(?::text[])`], [[values]], negate);
        if (look.op !== "ILIKE") {
          for (const v of values) {
            try { await db.raw("SELECT '' ~ ?", [v]); } catch { return [`"${v}" is not a valid regular expression.`]; }
          }
        }
        return anyOf(values.map(() => `${column}::text ${look.op} ?`), values.map((v) => [look.wrap(v)]), look.negate);
      }
      case "number": {
        // Values are checked against the column type here, so the database never sees one it refuses.
        const integer = field?.kind === "scalar" && field.type === "integer";
        if (integer) {
          const bad = values.find((v) => !INTEGER.test(v.trim()));
          if (bad) return ["Enter a whole number."];
          if (values.some((v) => BigInt(v.trim()) > BIGINT_MAX)) return [`Ensure this value is less than or equal to ${BIGINT_MAX}.`];
          if (values.some((v) => BigInt(v.trim()) < BIGINT_MIN)) return [`Ensure this value is greater than or equal to ${BIGINT_MIN}.`];
        } else if (values.some((v) => v.trim() === "" || !Number.isFinite(Number(v)))) return ["Enter a number."];
        const cast = integer ? "bigint" : "float8";
        const nums = values.map((v) => (integer ? BigInt(v.trim()).toString() : String(Number(v))));
        if (COMPARE[f.lookup]) return anyOf(nums.map(() => `${column} ${COMPARE[f.lookup]} ?::${cast}`), nums.map((n) => [n]), false);
        return anyOf(nums.map(() => `${column} = ?::${cast}`), nums.map((n) => [n]), negate);
      }
      case "date": case "datetime": {
        const isDate = f.kind === "date";
        const bad = values.find((v) => !isCalendarDate((isDate ? DATE : DATETIME).exec(v)));
        if (bad) return [isDate ? "Enter a valid date." : "Enter a valid date/time."];
        const op = COMPARE[f.lookup] ?? "=";
        const cast = isDate ? "date" : "timestamptz";
        return anyOf(values.map(() => `${column} ${op} ?::${cast}`), values.map((v) => [v]), negate);
      }
      case "boolean": {
        const v = values[values.length - 1];
        if (!TRUE.has(v) && !FALSE.has(v)) return [invalidChoice(v)];
        return (qb) => qb.whereRaw(`${column} = ?`, [TRUE.has(v)]);
      }
      case "choice": {
        const allowed = new Set((field as ChoiceField).choices.map(([v]) => String(v)));
        const bad = values.find((v) => !allowed.has(v) && v !== "null");
        if (bad) return [invalidChoice(bad)];
        const sql = values.map((v) => (v === "null" ? `(${column} IS NULL OR ${column}::text = '')` : `${column}::text = ?`));
        return anyOf(sql, values.map((v) => (v === "null" ? [] : [v])), negate);
      }
      case "fk": return this.fk(db, f, field as FkField | TreeParentField, column, values, negate);
      case "tag": return this.tags(db, m, values, negate);
      case "q": {
        const v = raw.join(" ").trim();
        if (!v) return () => undefined;
        const cols = f.fields!.map((n) => col("t0", storedColumn(this.index.field(m, n)!)!));
        const sql = cols.map((c) => `${c} ILIKE ?`);
        const binds = cols.map(() => [`%${likeEscape(v)}%`]);
        if (isUuid(v)) { sql.push("t0.id = ?::uuid"); binds.push([v]); }
        // A model with an address column is also searched by partial address (10.1 → inside 10.1.0.0/16).
        const net = m.fields.find((x): x is ScalarField => x.kind === "scalar" && (x.type === "cidr" || x.type === "ip"));
        if (net) {
          const lhs = net.type === "ip" ? `host(${col("t0", net.column)})::inet` : col("t0", net.column);
          for (const n of partialNetworks(v)) { sql.push(`${lhs} <<= ?::inet`); binds.push([n]); }
        }
        return anyOf(sql, binds, false);
      }
      case "network": return this.network(f, column, values);
    }
  }

  private async fk(db: Knex | Knex.Transaction, f: FilterDescriptor, field: FkField | TreeParentField, column: string, values: string[], negate: boolean): Promise<Where | string[]> {
    const target = this.index.model(field.target);
    const natural = f.idOnly ? undefined : target.naturalKey ? this.index.field(target, target.naturalKey) : undefined;
    const wantsNull = values.includes("null");
    const given = values.filter((v) => v !== "null");
    if (f.idOnly || !natural) {
      const bad = given.find((v) => !isUuid(v));
      if (bad) return [f.idOnly ? "Enter a valid UUID." : invalidChoice(bad)];
    }
    const rows: Array<{ id: string; key: string | null }> = given.length
      ? await db(target.table).select("id", natural ? db.raw(`${ident(storedColumn(natural)!)}::text AS key`) : db.raw("NULL AS key"))
        .where((qb) => {
          const ids = given.filter(isUuid);
          if (ids.length) qb.orWhereIn("id", ids);
          if (natural) qb.orWhereIn(storedColumn(natural)!, given);
        })
      : [];
    const found = new Set(rows.flatMap((r) => [r.id, r.key ?? ""]));
    const missing = given.find((v) => !found.has(v) && !found.has(v.toLowerCase()));
    if (missing) return [invalidChoice(missing)];
    let ids = rows.map((r) => r.id);
    if (target.features.tree && field.kind !== "treeParent" && ids.length) {
      const res = await db.raw(`WITH RECURSIVE sub AS (SELECT id FROM ${ident(target.table)} WHERE id = ANY(?::uuid[]) ` +
        `UNION ALL SELECT c.id FROM ${ident(target.table)} c JOIN sub ON ${col("c", parentColumn(target))} = sub.id) SELECT id FROM sub`, [ids]);
      ids = res.rows.map((r: { id: string }) => r.id);
    }
    const sql: string[] = [];
    const binds: unknown[][] = [];
    if (ids.length) { sql.push(`${column} = ANY(?::uuid[])`); binds.push([ids]); }
    if (wantsNull) { sql.push(`${column} IS NULL`); binds.push([]); }
    return anyOf(sql, binds, negate);
  }

  private async tags(db: Knex | Knex.Transaction, m: ModelDescriptor, slugs: string[], negate: boolean): Promise<Where | string[]> {
    const tagsField = m.fields.find((x): x is TagsField => x.kind === "tags")!;
    const tagModel = this.index.model(tagsField.target);
    const known = new Set((await db(tagModel.table).select("slug").whereIn("slug", slugs)).map((r: { slug: string }) => r.slug));
    const missing = slugs.find((s) => !known.has(s));
    if (missing) return [invalidChoice(missing)];
    const through = tagsField.through;
    const exists = `EXISTS (SELECT 1 FROM ${ident(through.table)} j JOIN ${ident(tagModel.table)} g ON g.id = ${col("j", through.target)} ` +
      `WHERE ${col("j", through.type)} = ? AND ${col("j", through.source)} = t0.id AND g.slug = ?)`;
    if (negate) return (qb) => { for (const s of slugs) qb.whereRaw(`NOT ${exists}`, [m.key, s]); };
    return (qb) => { for (const s of slugs) qb.whereRaw(exists, [m.key, s]); };
  }

  private network(f: FilterDescriptor, column: string, values: string[]): Where | string[] {
    switch (f.network) {
      case "family": {
        const bad = values.find((v) => v !== "4" && v !== "6");
        if (bad) return [invalidChoice(bad)];
        return anyOf(values.map(() => `family(${column}) = ?`), values.map((v) => [Number(v)]), false);
      }
      case "mask_length": case "mask_length__gte": case "mask_length__lte": {
        const bad = values.find((v) => !/^\d+$/.test(v) || Number(v) > 128);
        if (bad) return ["Enter a whole number between 0 and 128."];
        const op = f.network === "mask_length" ? "=" : f.network === "mask_length__gte" ? ">=" : "<=";
        return anyOf(values.map(() => `masklen(${column}) ${op} ?`), values.map((v) => [Number(v)]), false);
      }
      case "address": {
        const parsed = values.map(parseInterface);
        if (parsed.includes(null)) return [`Enter a valid IPv4 or IPv6 address.`];
        return anyOf(parsed.map((p) => (p!.includes("/") ? `${column} = ?::inet` : `host(${column}) = ?`)), parsed.map((p) => [p]), false);
      }
      default: {
        const parsed = values.map(parseNetwork);
        if (parsed.includes(null)) return [`Enter a valid IPv4 or IPv6 network in CIDR notation.`];
        const op = { net_equals: "=", net_contained: "<<", net_contained_or_equal: "<<=", net_contains_or_equals: ">>=", net_host_contained: "<<=" }[f.network as string] ?? "=";
        const lhs = f.network === "net_host_contained" ? `host(${column})::inet` : column;
        return anyOf(parsed.map(() => `${lhs} ${op} ?::inet`), parsed.map((p) => [p]), false);
      }
    }
  }
}
