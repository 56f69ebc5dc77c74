// Object-permission constraints (Nautobot's ObjectPermission.constraints): a JSON object of
// Django ORM lookups (`{"site__region__slug": "eu", "status__slug__in": ["active"]}`, the keys
// ANDed) or a list of such objects (ORed), compiled to one SQL condition on a model's row, so
// a constrained list is still one statement. Paths follow the model's fields: foreign keys
// and tree parents to the related row, many-to-many fields, tags and reverse relations to any
// related row, a status to its slug or name. `$user` stands for the requesting user's id.
import type { FieldDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { col, ident } from "../../query/sql.js";

/** A compiled condition: SQL with `?` placeholders, and their values in order. */
export interface Condition {
  sql: string;
  bindings: unknown[];
}

/** A constraint that names no field or lookup of the model, or has a value of the wrong form. */
export class ConstraintError extends Error {}

const TEXT_LOOKUPS: Record<string, (c: string) => string> = {
  exact: (c) => `${c} = ?`,
  iexact: (c) => `upper(${c}::text) = upper(?)`,
  contains: (c) => `strpos(${c}::text, ?) > 0`,
  icontains: (c) => `strpos(upper(${c}::text), upper(?)) > 0`,
  startswith: (c) => `left(${c}::text, length(?::text)) = ?`,
  istartswith: (c) => `upper(left(${c}::text, length(?::text))) = upper(?)`,
  endswith: (c) => `right(${c}::text, length(?::text)) = ?`,
  iendswith: (c) => `upper(right(${c}::text, length(?::text))) = upper(?)`,
  gt: (c) => `${c} > ?`,
  gte: (c) => `${c} >= ?`,
  lt: (c) => `${c} < ?`,
  lte: (c) => `${c} <= ?`,
  regex: (c) => `${c}::text ~ ?`,
  iregex: (c) => `${c}::text ~* ?`,
};
/** Lookups whose SQL names the value twice. */
const TWICE = new Set(["startswith", "istartswith", "endswith", "iendswith"]);
const LOOKUPS = new Set([...Object.keys(TEXT_LOOKUPS), "in", "isnull"]);

type Resolve = (key: string) => ModelDescriptor;

/** A step from one model's row to related rows: the SQL that reaches them, around a condition on them. */
interface Hop {
  target: ModelDescriptor;
  around: (alias: string, inner: string, next: string) => string;
}

function hopOf(f: FieldDescriptor, m: ModelDescriptor, model: Resolve): Hop | null {
  switch (f.kind) {
    case "fk":
    case "treeParent": {
      const target = model(f.target);
      return { target, around: (a, inner, x) => `${col(a, f.column)} IN (SELECT ${x}.id FROM ${ident(target.table)} ${x} WHERE ${inner})` };
    }
    case "m2m": {
      const target = model(f.target);
      const t = f.through;
      return {
        target,
        around: (a, inner, x) => `EXISTS (SELECT 1 FROM ${ident(t.table)} j_${x} JOIN ${ident(target.table)} ${x} ON ${x}.id = ${col(`j_${x}`, t.target)} ` +
          `WHERE ${col(`j_${x}`, t.source)} = ${a}.id AND ${inner})`,
      };
    }
    case "tags": {
      const target = model(f.target);
      const t = f.through;
      return {
        target,
        around: (a, inner, x) => `EXISTS (SELECT 1 FROM ${ident(t.table)} j_${x} JOIN ${ident(target.table)} ${x} ON ${x}.id = ${col(`j_${x}`, t.target)} ` +
          `WHERE ${col(`j_${x}`, t.source)} = ${a}.id AND ${col(`j_${x}`, t.type)} = '${m.key}' AND ${inner})`,
      };
    }
    case "reverse": {
      if (f.reverse.through) return null;
      const target = model(f.target);
      return { target, around: (a, inner, x) => `EXISTS (SELECT 1 FROM ${ident(target.table)} ${x} WHERE ${col(x, f.reverse.column)} = ${a}.id AND ${inner})` };
    }
    default:
      return null;
  }
}

/** The column a path may end on, or null when the field stores none. */
function columnOf(f: FieldDescriptor): string | null {
  switch (f.kind) {
    case "id": return "id";
    case "scalar": case "choice": case "contentType": case "status": case "fk": case "treeParent": case "list": return f.column;
    default: return null;
  }
}

export class ConstraintCompiler {
  constructor(private readonly index: ModelIndex) {}

  /**
   * The condition on the row aliased `alias` of `m` that one permission's constraints set:
   * null or `{}` (or a list holding one) allows every row. Throws ConstraintError naming what
   * it cannot compile.
   */
  compile(m: ModelDescriptor, constraints: unknown, alias: string, userId: string | null): Condition | null {
    const sets = Array.isArray(constraints) ? constraints : [constraints];
    if (!sets.length) return { sql: "false", bindings: [] };
    const parts: Condition[] = [];
    for (const set of sets) {
      if (set === null || set === undefined) return null;
      if (typeof set !== "object" || Array.isArray(set)) throw new ConstraintError("constraints must be an object or a list of objects");
      const entries = Object.entries(set as Record<string, unknown>);
      if (!entries.length) return null;
      const terms = entries.map(([key, value], n) => this.lookup(m, alias, key, key.split("__"), substitute(value, userId), `c${n}`));
      parts.push({ sql: terms.map((t) => `(${t.sql})`).join(" AND "), bindings: terms.flatMap((t) => t.bindings) });
    }
    return { sql: parts.map((p) => `(${p.sql})`).join(" OR "), bindings: parts.flatMap((p) => p.bindings) };
  }

  private lookup(m: ModelDescriptor, alias: string, key: string, path: string[], value: unknown, next: string): Condition {
    const [name, ...rest] = path;
    // Any field of the model, shown or not: constraints are ORM lookups, not API fields.
    const f = m.fields.find((x) => x.name === name) ?? (name === "pk" ? m.fields.find((x) => x.kind === "id") : undefined);
    if (!f) throw new ConstraintError(`${m.key} has no field "${name}" (in "${key}")`);
    const lookup = rest.length === 1 && LOOKUPS.has(rest[0]) ? rest[0] : rest.length === 0 ? "exact" : null;
    if (lookup !== null) {
      if (f.kind === "status" && lookup !== "isnull") {
        // A status is Nautobot's foreign key to Status: compared by its primary key, the slug it stores here.
        return compare(col(alias, f.column), lookup, value, key);
      }
      const column = columnOf(f) ?? (f.kind === "m2m" || f.kind === "tags" || f.kind === "reverse" ? "id" : null);
      if (!column) throw new ConstraintError(`${m.key} field "${name}" cannot be compared (in "${key}")`);
      if (column === "id" && f.kind !== "id") {
        const hop = hopOf(f, m, (k) => this.index.model(k))!;
        if (lookup === "isnull") {
          if (typeof value !== "boolean") throw new ConstraintError(`"${key}" needs true or false`);
          const exists = hop.around(alias, "true", next);
          return { sql: value === true ? `NOT ${exists}` : exists, bindings: [] };
        }
        const inner = compare(`${next}.id`, lookup, value, key);
        return { sql: hop.around(alias, inner.sql, next), bindings: inner.bindings };
      }
      return compare(col(alias, column), lookup, value, key);
    }
    if (f.kind === "status") {
      const [attr, ...more] = rest;
      if (attr !== "slug" && attr !== "name" && attr !== "id") throw new ConstraintError(`status has no field "${attr}" (in "${key}")`);
      const op = more.length === 0 ? "exact" : more.length === 1 && LOOKUPS.has(more[0]) ? more[0] : null;
      if (!op) throw new ConstraintError(`unsupported lookup "${more.join("__")}" (in "${key}")`);
      if (attr === "slug") return compare(col(alias, f.column), op, value, key);
      const s = f.statuses;
      const inner = compare(`${next}.${ident(attr)}`, op, value, key);
      return { sql: `${col(alias, f.column)} IN (SELECT ${next}.slug FROM ${ident(s.table)} ${next} WHERE ${inner.sql})`, bindings: inner.bindings };
    }
    const hop = hopOf(f, m, (k) => this.index.model(k));
    if (!hop) throw new ConstraintError(`${m.key} field "${name}" has no related fields (in "${key}")`);
    const inner = this.lookup(hop.target, next, key, rest, value, `${next}_`);
    return { sql: hop.around(alias, inner.sql, next), bindings: inner.bindings };
  }

}

/** `$user` (alone, or in a list) becomes the requesting user's id. */
function substitute(value: unknown, userId: string | null): unknown {
  if (value === "$user") return userId;
  if (Array.isArray(value)) return value.map((v) => substitute(v, userId));
  return value;
}

/** Scalar values only: JSON objects are no lookup values. */
function scalar(value: unknown, key: string): unknown {
  if (value !== null && typeof value === "object") throw new ConstraintError(`"${key}" needs a plain value, not ${Array.isArray(value) ? "a list" : "an object"}`);
  return value;
}

function compare(column: string, lookup: string, value: unknown, key: string): Condition {
  if (lookup === "isnull") {
    if (typeof value !== "boolean") throw new ConstraintError(`"${key}" needs true or false`);
    return { sql: `${column} IS ${value ? "" : "NOT "}NULL`, bindings: [] };
  }
  if (lookup === "in") {
    if (!Array.isArray(value)) throw new ConstraintError(`"${key}" needs a list`);
    if (!value.length) return { sql: "false", bindings: [] };
    const items = value.map((v) => scalar(v, key));
    return { sql: `${column} IN (${items.map(() => "?").join(", ")})`, bindings: items };
  }
  const v = scalar(value, key);
  if (v === null) return lookup === "exact" ? { sql: `${column} IS NULL`, bindings: [] } : { sql: "false", bindings: [] };
  return { sql: TEXT_LOOKUPS[lookup](column), bindings: TWICE.has(lookup) ? [v, v] : [v] };
}
