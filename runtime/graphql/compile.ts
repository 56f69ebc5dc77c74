// Compiles a GraphQL operation into ONE SQL statement: each root field a sub-select, each
// nested object or list a correlated sub-select writing the JSON text of the answer keyed by
// response key, in selection order (the same JSON text the REST reads write,
// query/json-text.ts), filter arguments planned by the REST filter sets, and the requester's
// view permission applied at every level. A mutation's answer is compiled the same way over
// the rows it wrote. Gives the statement and, per root field, the filter checks riding in it;
// runs nothing. Where the text is already the answer graphql-js would give (`exact`), it is
// sent as it is; elsewhere graphql-js executes over it, parsed.
import {
  getArgumentValues, GraphQLError, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, isSpecifiedScalarType, Kind,
  type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLOutputType, type GraphQLType, type SelectionSetNode,
} from "graphql";
import type { Knex } from "knex";
import { storedColumn, type ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { checkColumns, keysNamed, type DynamicFilters, type FilterCompiler, type FilterErrors, type FilterPlan } from "../query/filters.js";
import { orderSql } from "../query/order.js";
import { col, ident, literal } from "../query/sql.js";
import { arrayJson, jsonbJson, objectJson, scalarJson } from "../query/json-text.js";
import type { FieldSource, GraphqlApi } from "./schema.js";

/** A piece of SQL with `?` placeholders and their values (values may be Knex builders or raws). */
interface Frag { sql: string; bindings: unknown[] }

/** The rows a mutation's root field wrote: one object, or a list in the order written. */
export interface Written { model: ModelDescriptor; ids: Array<string | number>; many: boolean }

/** Limits a query must keep: nesting of selections, and fields selected once fragments are spread. */
export interface Limits { maxDepth: number; maxFields: number }

export interface Compiled {
  statement: Frag;
  /** Filter plans whose checks ride in the statement, by root response key and check column prefix. */
  checks: Array<{ key: string; plan: FilterPlan; prefix: string }>;
  /** Root fields refused before any SQL (bad filter arguments), by response key. */
  refused: Map<string, { errors: FilterErrors; plan: FilterPlan }>;
  /** Models whose lists take filters named by data that `CompileDeps.dynamic` lacks: load them and compile again. */
  needs: Map<ModelDescriptor, Set<string>>;
  /**
   * The root response keys in selection order, where the statement's texts are the answer
   * graphql-js would give: no value it renders (computed fields), no field without a source,
   * no root field the statement does not read, and no view permission narrowing a level
   * (a non-null field it empties is graphql-js's error to report).
   */
  exact?: string[];
  /** The root response keys whose values the statement reads, as JSON text. */
  texts: string[];
}

export interface CompileDeps {
  db: Knex;
  index: ModelIndex;
  api: GraphqlApi;
  filters: FilterCompiler;
  /** The condition rows of `m` aliased `alias` must meet for the requester to view them (null: all rows; "false": none). */
  permitted(m: ModelDescriptor, alias: string): { sql: string; bindings: unknown[] } | null;
  /** The JSON the REST read of the row of `m` aliased `alias` selects: what computed fields render from. */
  shown(m: ModelDescriptor, alias: string): string;
  /** The lists' filters whose names are data (custom fields…), by model key, loaded for this request. */
  dynamic: Map<string, DynamicFilters[]>;
}

/** A descriptor literal in SQL that Knex's raw placeholders leave alone. */
const lit = (s: string) => literal(s).replace(/\?/g, "\\?");
const unwrap = (t: GraphQLType): GraphQLType => (t instanceof GraphQLNonNull || t instanceof GraphQLList ? unwrap(t.ofType) : t);

export class QueryCompiler {
  private alias = 0;
  private fields = 0;
  /** The root field being compiled: what a bad argument below it fails. */
  private root = "";
  private readonly checks: Compiled["checks"] = [];
  private readonly refused: Compiled["refused"] = new Map();
  private readonly needs: Compiled["needs"] = new Map();
  private exact = true;
  private readonly texts: string[] = [];

  constructor(
    private readonly deps: CompileDeps,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
    private readonly limits: Limits,
  ) {}

  /** The statement for the root selection set of a query. */
  compile(query: GraphQLObjectType, selection: SelectionSetNode): Compiled {
    const parts: Frag[] = [];
    const keys: string[] = [];
    for (const [key, nodes] of this.collect(query, selection, 1)) {
      const def = query.getFields()[nodes[0].name.value];
      const source = def && this.deps.api.sources.get(`${query.name}.${def.name}`);
      keys.push(key);
      if (!source || source.kind !== "rows") {
        this.exact = false;
        continue;
      }
      this.root = key;
      const args = getArgumentValues(def, nodes[0], this.variables);
      const sel = this.merged(nodes);
      const type = unwrap(def.type) as GraphQLObjectType;
      const expr = source.many
        ? this.list(source.model, type, sel, args, null, 2)
        : this.single(source.model, type, sel, args.id as string, 2);
      if (expr) {
        parts.push({ sql: `${expr.sql} AS ${ident(key)}`, bindings: expr.bindings });
        this.texts.push(key);
      } else this.exact = false;
    }
    return this.finish(parts, keys);
  }

  /** The root fields of a selection set by response key: a mutation's, to run in order. */
  roots(type: GraphQLObjectType, selection: SelectionSetNode): Map<string, FieldNode[]> {
    return this.collect(type, selection, 1);
  }

  /**
   * The statement for a mutation's answer: each root field that wrote rows selects them (by
   * id, in the order written), read for their writer whatever they may view, as REST answers
   * a write; what they link to is read as the requester may view it, as in a query.
   */
  compileWritten(mutation: GraphQLObjectType, selection: SelectionSetNode, written: Map<string, Written>): Compiled {
    const parts: Frag[] = [];
    for (const [key, nodes] of this.collect(mutation, selection, 1)) {
      const w = written.get(key);
      if (!w) continue;
      this.root = key;
      const type = unwrap(mutation.getFields()[nodes[0].name.value].type) as GraphQLObjectType;
      const g = `g${++this.alias}`;
      const { db } = this.deps;
      // The keys of the rows written: each one the write accepted as a key and found by it, so
      // each casts to the key's type, and the join probes the key's index (compared as text, it
      // read the whole table for one object, and missed a key given in another spelling).
      const keyType = this.deps.index.integerKeys(w.model) ? "bigint" : "uuid";
      const rows = db.queryBuilder()
        .from(db.raw(`${ident(w.model.table)} AS t0 JOIN jsonb_array_elements_text(?::jsonb) WITH ORDINALITY AS _gq_w(id, n) ON t0.id = _gq_w.id::${keyType}`, [JSON.stringify(w.ids.map(String))]))
        .select("t0.*", db.raw("_gq_w.n AS _gq_n"));
      const obj = this.object(w.model, type, g, this.merged(nodes), 2);
      const sql = w.many ? arrayJson(obj.sql, `FROM (?) ${g}`, `${g}._gq_n`) : `coalesce((SELECT ${obj.sql} FROM (?) ${g}), 'null')`;
      parts.push({ sql: `${sql} AS ${ident(key)}`, bindings: [...obj.bindings, rows] });
      this.texts.push(key);
    }
    return this.finish(parts);
  }

  private finish(parts: Frag[], keys?: string[]): Compiled {
    this.checks.forEach(({ plan, prefix }) => {
      for (const c of checkColumns(plan.checks)) parts.push({ sql: c.sql.replace(/ AS "([^"]+)"$/, ` AS "${prefix}$1"`), bindings: c.bindings });
    });
    const statement = parts.length ? join(parts, ", ") : { sql: "1 AS _none", bindings: [] };
    return {
      statement: { sql: `SELECT ${statement.sql}`, bindings: statement.bindings }, checks: this.checks, refused: this.refused, needs: this.needs, texts: this.texts,
      ...(keys && this.exact ? { exact: keys } : {}),
    };
  }

  /** The selections of a set by response key, fragments spread and @skip/@include honoured. */
  private collect(type: GraphQLObjectType, set: SelectionSetNode, depth: number, out = new Map<string, FieldNode[]>()): Map<string, FieldNode[]> {
    if (depth > this.limits.maxDepth) throw new GraphQLError(`Query is too deep: at most ${this.limits.maxDepth} levels of selections.`);
    for (const s of set.selections) {
      if (!this.included(s)) continue;
      if (s.kind === Kind.FIELD) {
        if (++this.fields > this.limits.maxFields) throw new GraphQLError(`Query selects too many fields: at most ${this.limits.maxFields}.`);
        const key = s.alias?.value ?? s.name.value;
        out.set(key, [...(out.get(key) ?? []), s]);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (!s.typeCondition || s.typeCondition.name.value === type.name) this.collect(type, s.selectionSet, depth, out);
      } else {
        const frag = this.fragments[s.name.value];
        if (frag && frag.typeCondition.name.value === type.name) this.collect(type, frag.selectionSet, depth, out);
      }
    }
    return out;
  }

  private included(s: { directives?: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: unknown }[] }[] }): boolean {
    for (const d of s.directives ?? []) {
      const arg = d.arguments?.find((a) => a.name.value === "if")?.value as { kind: string; value?: boolean; name?: { value: string } } | undefined;
      const value = arg?.kind === Kind.VARIABLE ? this.variables[arg.name!.value] === true : arg?.value === true;
      if (d.name.value === "skip" && value) return false;
      if (d.name.value === "include" && !value) return false;
    }
    return true;
  }

  private merged(nodes: FieldNode[]): SelectionSetNode {
    return { kind: Kind.SELECTION_SET, selections: nodes.flatMap((n) => n.selectionSet?.selections ?? []) };
  }

  /** JSON text of the row aliased `a` of `m`, with the selection's fields keyed by response key, in selection order. */
  private object(m: ModelDescriptor, type: GraphQLObjectType, a: string, set: SelectionSetNode, depth: number): Frag {
    const entries: Array<[string, string]> = [];
    const bindings: unknown[] = [];
    for (const [key, nodes] of this.collect(type, set, depth)) {
      const name = nodes[0].name.value;
      if (name === "__typename") {
        entries.push([key, lit(JSON.stringify(type.name))]);
        continue;
      }
      const def = type.getFields()[name];
      const source = def && this.deps.api.sources.get(`${type.name}.${name}`);
      if (!source) {
        // graphql-js answers it (null, or its error where the field is non-null).
        this.exact = false;
        continue;
      }
      const expr = this.value(m, def, source, a, nodes, depth + 1);
      entries.push([key, expr.sql]);
      bindings.push(...expr.bindings);
    }
    // The keys are GraphQL names: no `?` for Knex to take for a placeholder.
    return { sql: objectJson(entries), bindings };
  }

  private value(m: ModelDescriptor, def: GraphQLField<unknown, unknown>, source: FieldSource, a: string, nodes: FieldNode[], depth: number): Frag {
    const raw = (sql: string): Frag => ({ sql, bindings: [] });
    const sel = this.merged(nodes);
    const target = unwrap(def.type as GraphQLOutputType);
    if (source.kind === "reverse") {
      const args = getArgumentValues(def, nodes[0], this.variables);
      const link = source.link;
      const where = link.kind === "generic"
        ? `${col("t0", link.idColumn)} = ${col(a, "id")} AND ${col("t0", link.typeColumn)} = ${lit(m.key)}`
        : link.kind === "m2m"
          ? `EXISTS (SELECT 1 FROM ${ident(link.through.table)} j WHERE ${col("j", link.through.source)} = t0.id AND ${col("j", link.through.target)} = ${col(a, "id")})`
          : `${col("t0", storedColumn(link)!)} = ${col(a, "id")}`;
      const one = !((def.type instanceof GraphQLNonNull ? def.type.ofType : def.type) instanceof GraphQLList);
      if (one) return this.single(source.model, target as GraphQLObjectType, sel, null, depth, where) ?? raw("'null'");
      // Rows of one parent: terms of their order through the link to it are the same for all.
      const pinned = link.kind === "fk" ? link.name : undefined;
      return this.list(source.model, target as GraphQLObjectType, sel, args, where, depth, pinned) ?? raw("'null'");
    }
    const leaf = (kind: SqlKind, sql: string) => raw(this.leaf(def.type as GraphQLOutputType, kind, sql));
    const asJsonb = (sql: string) => leaf("jsonb", `to_jsonb(${sql})`);
    const text = (sql: string) => leaf("text", sql);
    if (source.kind === "custom") {
      const value = `(${col(a, source.column)}::jsonb -> ${lit(source.key)})`;
      return source.json ? text(`(${value})::text`) : leaf("jsonb", value);
    }
    if (source.kind === "sql") return asJsonb(`(${source.expr.replace(/\{row\}/g, a).replace(/\?/g, "\\?")})`);
    if (source.kind === "computedField") {
      // Rendered by JavaScript from the row as REST reads it.
      this.exact = false;
      return raw(`'{"obj":' || coalesce((${this.deps.shown(m, a)})::text, 'null') || '}'`);
    }
    if (source.kind === "relationship") return this.peers(source, target as GraphQLObjectType, sel, a, def.type, depth) ?? raw("'null'");
    if (source.kind !== "field") return raw("'null'");
    const f = source.field;
    const c = (name: string) => col(a, name);
    switch (f.kind) {
      // ID serializes a number as a string.
      case "id": return text(`${c("id")}::text`);
      case "scalar":
        if (f.type === "json" || f.type === "decimal" || f.type === "cidr" || f.type === "ip" || f.type === "uuid") return text(`(${c(f.column)})::text`);
        if (f.type === "integer") return leaf("integer", `(${c(f.column)})::bigint`);
        if (f.type === "string") return text(c(f.column));
        if (f.type === "boolean") return leaf("boolean", c(f.column));
        return asJsonb(c(f.column));
      case "choice": {
        const names = this.deps.api.choices.get((target as { name: string }).name) ?? new Map<string, string>();
        const whens = [...names].map(([v, n]) => `WHEN ${lit(v)} THEN ${lit(n)}`).join(" ");
        return whens ? text(`(CASE ${c(f.column)}::text ${whens} ELSE NULL END)`) : raw("'null'");
      }
      case "ipFamily": {
        const from = this.deps.index.field(m, f.from);
        const column = from && storedColumn(from);
        return column ? leaf("integer", `family(${c(column)})`) : raw("'null'");
      }
      case "list": return asJsonb(c(f.column));
      case "computed": {
        const read = m.hooks?.readValues?.[f.name];
        return read ? asJsonb(`(${read({ alias: a, model: m })})`) : raw("'null'");
      }
      case "fk": case "treeParent":
        return this.single(this.deps.index.model(f.target), target as GraphQLObjectType, sel, null, depth, `t0.id = ${c(f.column)}`) ?? raw("'null'");
      case "status": {
        const statuses = this.deps.index.model(f.statuses.model);
        return this.single(statuses, target as GraphQLObjectType, sel, null, depth, `${col("t0", this.deps.index.column(statuses, "slug"))} = ${c(f.column)}`) ?? raw("'null'");
      }
      case "m2m": case "tags": {
        const t = f.through;
        const typed = f.kind === "tags" ? ` AND ${col("j", f.through.type)} = ${lit(m.key)}` : "";
        const where = `EXISTS (SELECT 1 FROM ${ident(t.table)} j WHERE ${col("j", t.target)} = t0.id AND ${col("j", t.source)} = ${c("id")}${typed})`;
        return this.list(this.deps.index.model(f.target), target as GraphQLObjectType, sel, {}, where, depth) ?? raw("'[]'");
      }
      default: return raw("'null'");
    }
  }

  /**
   * JSON text of a leaf value `sql` (of `kind` in SQL) of GraphQL type `type`. Custom scalars
   * and enums pass the value through; the built-in scalars coerce what is not already theirs
   * (a number for a String, a string for a Boolean) and refuse an Int beyond 32 bits. A value
   * of theirs is written as it is; another is written after NOT_AS_IS, so the statement's text
   * is not sent but executed over (its markers removed). A list of a built-in scalar is always
   * executed over.
   */
  private leaf(type: GraphQLOutputType, kind: SqlKind, sql: string): string {
    const json = kind === "jsonb" ? jsonbJson(sql) : scalarJson(sql);
    const nullable = type instanceof GraphQLNonNull ? type.ofType : type;
    const named = unwrap(type);
    if (!(named instanceof GraphQLScalarType) || !isSpecifiedScalarType(named)) return json;
    if (nullable instanceof GraphQLList) {
      this.exact = false;
      return json;
    }
    const asIs = kind === "jsonb" ? jsonbIs(named.name, sql) : columnIs(named.name, kind, sql);
    if (asIs === true) return json;
    if (asIs === false) {
      this.exact = false;
      return json;
    }
    return `CASE WHEN ${asIs} THEN ${json} ELSE chr(5) || ${json} END`;
  }

  /** The peers of the row aliased `a` through a relationship: one object, or a list where the type is one. */
  private peers(source: Extract<FieldSource, { kind: "relationship" }>, type: GraphQLObjectType, sel: SelectionSetNode, a: string, shown: GraphQLOutputType, depth: number): Frag | null {
    const associations = this.deps.index.api.relationships?.associations;
    if (!associations) return null;
    const assoc = this.deps.index.model(associations);
    const [mine, theirs] = source.side === "source" ? ["source_id", "destination_id"] : ["destination_id", "source_id"];
    const link = (x: string, y: string) => `(${col("j", x)} = ${col(a, "id")} AND ${col("j", y)} = t0.id)`;
    const where = `EXISTS (SELECT 1 FROM ${ident(assoc.table)} j WHERE ${col("j", this.deps.index.column(assoc, "relationship"))} = ${lit(source.id)} ` +
      `AND (${link(mine, theirs)}${source.symmetric ? ` OR ${link(theirs, mine)}` : ""}))`;
    const many = (shown instanceof GraphQLNonNull ? shown.ofType : shown) instanceof GraphQLList;
    return many ? this.list(source.peer, type, sel, {}, where, depth) : this.single(source.peer, type, sel, null, depth, where);
  }

  /** The rows of `m` the requester may view, as a Knex builder over `t0`, narrowed by `where`. */
  private rows(m: ModelDescriptor, where: string | null): Knex.QueryBuilder {
    const qb = this.deps.db.queryBuilder().from(`${m.table} as t0`);
    if (where) qb.whereRaw(where);
    const cond = this.deps.permitted(m, "t0");
    if (cond) {
      qb.whereRaw(cond.sql, cond.bindings as Knex.RawBinding[]);
      this.exact = false;
    }
    return qb;
  }

  /** One object (or null): by `id` given as an argument, or picked by `where`. */
  private single(m: ModelDescriptor, type: GraphQLObjectType, sel: SelectionSetNode, id: string | null, depth: number, where: string | null = null): Frag | null {
    const g = `g${++this.alias}`;
    const qb = this.rows(m, where).select("t0.*").limit(1);
    if (id !== null) {
      // The key `id` names, if any, bound in the key's type: an index probe, where the key's text
      // compared with it read the whole table.
      const { keys: [key], keyType } = keysNamed([String(id)], this.deps.index.integerKeys(m));
      if (key === null) return { sql: "'null'", bindings: [] };
      qb.whereRaw(`t0.id = ?::${keyType}`, [key]);
    }
    const obj = this.object(m, type, g, sel, depth);
    return { sql: `coalesce((SELECT ${obj.sql} FROM (?) ${g}), 'null')`, bindings: [...obj.bindings, qb] };
  }

  /** A list of `m` rows narrowed by `where`, the filter arguments, limit and offset, in the model's order. */
  private list(m: ModelDescriptor, type: GraphQLObjectType, sel: SelectionSetNode, args: Record<string, unknown>, where: string | null, depth: number, pinned?: string): Frag | null {
    const g = `g${++this.alias}`;
    const qb = this.rows(m, where);
    const params = new Map<string, string[]>();
    for (const [name, v] of Object.entries(args)) {
      if (name === "limit" || name === "offset" || v === undefined || v === null) continue;
      const values = (Array.isArray(v) ? v : [v]).filter((x) => x !== null).map(String);
      params.set(name === "_type" ? "type" : name, values);
    }
    if (params.size) {
      const dynamic = this.deps.dynamic.get(m.key);
      const named = [...params.keys()].filter((p) => !m.filters.some((f) => f.param === p));
      if (named.length && !dynamic) {
        this.needs.set(m, new Set([...(this.needs.get(m) ?? []), ...named]));
        return null;
      }
      const { errors, plan } = this.deps.filters.compile(m, params, { strict: true, reserved: new Set(), dynamic });
      // A bad argument below the root fails its root field, as the resolver raising it fails the query's branch.
      if (Object.keys(errors).length) {
        if (!this.refused.has(this.root)) this.refused.set(this.root, { errors, plan });
        return null;
      }
      plan.apply(qb);
      if (plan.checks.length) this.checks.push({ key: this.root, plan, prefix: `${g}_` });
    }
    const limit = args.limit as number | undefined | null;
    const offset = args.offset as number | undefined | null;
    if ((limit ?? 0) < 0 || (offset ?? 0) < 0) throw new GraphQLError("Negative indexing is not supported.");
    const ordering = pinned ? m.ordering.filter((o) => (o.through?.length ? o.through[0] : o.field) !== pinned) : m.ordering;
    const order = orderSql(this.deps.index, m, ordering, "t0");
    qb.select("t0.*", this.deps.db.raw(`row_number() OVER (ORDER BY ${order}) AS _gq_n`)).orderByRaw(order);
    if (offset) qb.offset(offset);
    if (limit) qb.limit(limit);
    const obj = this.object(m, type, g, sel, depth);
    return { sql: arrayJson(obj.sql, `FROM (?) ${g}`, `${g}._gq_n`), bindings: [...obj.bindings, qb] };
  }
}

/** What a leaf's value is in SQL: text, a boolean, an integer, or a jsonb value. */
type SqlKind = "text" | "boolean" | "integer" | "jsonb";

/** Before a leaf's text where graphql-js would not write the value as it is (`chr(5)`): JSON escapes it in data. */
export const NOT_AS_IS = "\u0005";

const INT32 = "BETWEEN -2147483648 AND 2147483647";

/** Whether a column's value of `kind` is written by built-in scalar `scalar` as it is: always, never, or where the SQL says. */
function columnIs(scalar: string, kind: Exclude<SqlKind, "jsonb">, sql: string): boolean | string {
  if (kind === "integer") return scalar === "Float" || (scalar === "Int" ? `${sql} IS NULL OR ${sql} ${INT32}` : false);
  return (kind === "text" && (scalar === "String" || scalar === "ID")) || (kind === "boolean" && scalar === "Boolean");
}

/** The same of a jsonb value, as graphql-js sees what pg parses of it (SQL NULL and JSON null alike). */
function jsonbIs(scalar: string, sql: string): string | false {
  const of = (types: string) => `coalesce(jsonb_typeof(${sql}), 'null') IN (${types})`;
  if (scalar === "String" || scalar === "ID") return of("'string', 'null'");
  if (scalar === "Boolean") return of("'boolean', 'null'");
  if (scalar === "Float") return of("'number', 'null'");
  // In a CASE, so that only a number is cast to one.
  if (scalar === "Int") return `CASE WHEN jsonb_typeof(${sql}) = 'number' THEN (${sql})::numeric = trunc((${sql})::numeric) AND (${sql})::numeric ${INT32} ELSE ${of("'null'")} END`;
  return false;
}

function join(frags: Frag[], sep: string): Frag {
  return { sql: frags.map((f) => f.sql).join(sep), bindings: frags.flatMap((f) => f.bindings) };
}

