// Read plans: for a model, a shape (full, nested, brief) and an API version, one SQL select
// list that returns everything the response needs (nested related objects, tags and counts
// as JSON sub-selects: one statement, never a query per row), and the function that turns
// a result row into the response object. Plans are built once and cached.
import { isLink, storedColumn, type DisplayPart, type DisplayTransform, type FieldDescriptor, type ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { kindOf } from "../kinds/index.js";
import type { ReadContext, Render, RenderContext, Shape } from "../kinds/types.js";
import { arrayJson, objectJson } from "./json-text.js";
import { orderSql } from "./order.js";
import { col, ident, literal } from "./sql.js";

const identity: Render = (v) => v;

export type { RenderContext, Shape };

/** A fact the plan was built on, and the SQL expression that gives its current value. */
export interface Assumption {
  key: string;
  probe: string;
  believed: string;
}

export interface ReadPlan {
  /** Select list over the alias `t0`. */
  select: string;
  /** The select list's entries, each an expression and the name it is read as. */
  columns: ReadonlyArray<{ expr: string; alias: string }>;
  render: (row: Record<string, unknown>, ctx: RenderContext) => Record<string, unknown>;
  /**
   * SQL of the rendered object's JSON text over the alias `t0`, URLs as markers
   * (runtime/query/json-text.ts); absent where a field can only be rendered in JavaScript.
   */
  json?: string;
  /**
   * `json` for a statement over many rows: the objects its links name are joined (`joins`, to
   * follow `t0` in the FROM clause) rather than looked up by a sub-select for each row. Joined,
   * the fifty sites of a page of prefixes are read once, where each sub-select read the site
   * table; for one row, a lookup is cheaper than the joins (a prefix's detail 20 % slower).
   * `entries`: each field's name and the SQL of its text, which `json` runs together.
   */
  joined?: { json: string; joins: string; entries: ReadonlyArray<readonly [string, string]> };
  /** Facts about the data the select list was sized by; empty for most plans. */
  assumptions: Assumption[];
}

/** The column a plan's n-th assumption is checked in. */
export const assumptionColumn = (n: number) => `_assumed_${n}`;

/**
 * How deep related objects nest before they become bare ids: a guard against nested forms
 * that would contain each other. Three levels is what the deepest serializer chain shows
 * (a circuit's termination's connected interface's device).
 */
const MAX_NESTING = 3;

export class ReadPlans {
  private readonly cache = new Map<string, ReadPlan>();
  /**
   * Facts plans were built on, as the last statement that checked them found them. Only a
   * guess: every statement built on one re-checks it, so instances never need to agree.
   */
  private readonly facts = new Map<string, string>();

  constructor(private readonly index: ModelIndex) {}

  /**
   * The plan of a shape in a version, leaving out the excludable fields `exclude` names and
   * the opt-in fields `include` does not name ("all": every one).
   */
  get(m: ModelDescriptor, shape: Shape, version: string, exclude: string[] = [], include: string[] | "all" = []): ReadPlan {
    const left = m.fields.filter((f) => (f.kind === "computed" && f.excludable && exclude.includes(f.name))
      || (f.optIn && include !== "all" && !include.includes(f.name))).map((f) => f.name);
    const key = `${m.key}|${shape}|${version}|${left.join(",")}`;
    let plan = this.cache.get(key);
    if (!plan) {
      plan = this.build(m, shape, version, new Set(left));
      this.cache.set(key, plan);
    }
    return plan;
  }

  /**
   * Records what a statement found for facts its plan assumed; plans built on a fact that
   * changed are dropped. Gives whether any had changed (the statement's answer is then void).
   */
  learn(plan: ReadPlan, row: Record<string, unknown> | undefined): boolean {
    if (!row) return false;
    let changed = false;
    plan.assumptions.forEach((a, n) => {
      const found = String(row[assumptionColumn(n)] ?? "");
      if (found === a.believed) return;
      changed = true;
      this.facts.set(a.key, found);
      for (const [key, p] of this.cache) if (p.assumptions.some((x) => x.key === a.key)) this.cache.delete(key);
    });
    return changed;
  }

  /** The select-list entries that check a plan's assumptions. */
  static checks(plan: ReadPlan): string[] {
    return plan.assumptions.map((a, n) => `${a.probe} AS ${ident(assumptionColumn(n))}`);
  }

  /**
   * A field's SQL in the full form of its model in the default version, over the row aliased
   * `alias`: its kind's `read` and `json` (a profile shaping records of its own from the values).
   */
  fieldSql(m: ModelDescriptor, f: FieldDescriptor, alias: string): { read?: string; json?: string } {
    const ctx = this.context(m, alias, 0, "full", this.index.api.versions.default);
    const kind = kindOf(f);
    return { read: kind.read?.(f, ctx), json: kind.json?.(f, ctx) };
  }

  /** The fields a shape shows; `since`/`until` rule the full shape only, as Nautobot versions its full serializers and never its nested ones. */
  private fieldsOf(m: ModelDescriptor, shape: Shape, version: string, only?: string[]): FieldDescriptor[] {
    const readable = (f: FieldDescriptor | undefined): f is FieldDescriptor => !!f && !f.writeOnly;
    if (shape === "full") return m.fields.filter((f) => readable(f) && !f.nestedOnly && this.index.inVersion(f, version));
    const names = only ?? (shape === "nested" ? m.nested : m.brief);
    return names.map((n) => this.index.field(m, n)).filter(readable);
  }

  private build(m: ModelDescriptor, shape: Shape, version: string, left: Set<string>): ReadPlan {
    const assumptions: Assumption[] = [];
    const ctx = this.context(m, "t0", 0, shape, version, assumptions);
    const columns: Array<{ expr: string; alias: string }> = [];
    const renders: Array<[string, Render]> = [];
    const fields = this.fieldsOf(m, shape, version).filter((x) => !left.has(x.name));
    for (const f of fields) {
      const kind = kindOf(f);
      const expr = kind.read?.(f, ctx);
      if (expr) columns.push({ expr, alias: f.name });
      renders.push([f.name, kind.render?.(f, ctx) ?? identity]);
    }
    const json = this.objectJson(fields, ctx);
    const joins: string[] = [];
    const entries = json === undefined ? undefined : this.entriesOf(fields, this.context(m, "t0", 0, shape, version, assumptions, joins));
    return {
      select: columns.map((c) => `${c.expr} AS ${ident(c.alias)}`).join(", "),
      columns,
      json,
      joined: entries === undefined ? undefined : { json: objectJson(entries), joins: joins.join(" "), entries },
      assumptions,
      render: (row, rctx) => {
        const out: Record<string, unknown> = {};
        for (const [name, r] of renders) out[name] = r(row[name], rctx, row, out);
        return out;
      },
    };
  }

  /**
   * What a kind needs to read a field of `m` from the row aliased `alias`, `depth` levels down;
   * `joins` collects the joins of a plan's `joined` text, where the row is a statement's own.
   */
  private context(m: ModelDescriptor, alias: string, depth: number, shape: Shape, version: string, assumptions: Assumption[] = [], joins?: string[]): ReadContext {
    const below = `n${depth + 1}`;
    return {
      index: this.index,
      model: m,
      alias,
      version,
      shape,
      canNest: depth < MAX_NESTING,
      embedded: depth > 0,
      // A window over no ordering: PostgreSQL aggregates the rows once and gives each the result
      // (a statement that puts the text under a sub-select of its own, the change log's, has it
      // aggregate that sub-select's one row: the same value, not shared).
      rows: joins && {
        once: (expr) => {
          const as = `${alias}_v${joins.length + 1}`;
          joins.push(`LEFT JOIN LATERAL (SELECT ${expr} AS v OFFSET 0) ${as} ON true`);
          return `${as}.v`;
        },
        whole: (aggregate) => `(${aggregate} OVER ())`,
      },
      nestedObject: (target, where, fields) =>
        `(SELECT ${this.nestedJson(target, below, depth + 1, version, fields, assumptions)} FROM ${ident(target.table)} ${below} WHERE ${where(below)})`,
      nestedList: (target, from) => {
        const order = orderSql(this.index, target, target.ordering, below);
        return `(SELECT coalesce(json_agg(${this.nestedJson(target, below, depth + 1, version, undefined, assumptions)} ORDER BY ${order}), '[]'::json) ${from(below)})`;
      },
      nestedObjectJson: (target, where, fields) => {
        const json = this.nestedJsonText(target, below, depth + 1, version, fields, assumptions);
        return json && `coalesce((SELECT ${json} FROM ${ident(target.table)} ${below} WHERE ${where(below)}), 'null')`;
      },
      linkedObjectJson: (target, key, fields) => {
        const json = this.nestedJsonText(target, below, depth + 1, version, fields, assumptions);
        if (json === undefined) return undefined;
        const from = `FROM ${ident(target.table)} ${below} WHERE ${below}.id = ${key}`;
        // An unset link (most of them, in sparse columns) costs only its test.
        if (!joins) return `CASE WHEN ${key} IS NULL THEN 'null' ELSE coalesce((SELECT ${json} ${from}), 'null') END`;
        const as = `${alias}_l${joins.length + 1}`;
        joins.push(`LEFT JOIN LATERAL (SELECT ${json} AS j ${from}) ${as} ON true`);
        return `coalesce(${as}.j, 'null')`;
      },
      nestedListJson: (target, from) => {
        const json = this.nestedJsonText(target, below, depth + 1, version, undefined, assumptions);
        if (json === undefined) return undefined;
        // An empty list (a device's tags, an interface's tagged VLANs: most of them) costs only
        // a probe. The aggregate's sub-select was 1.3 of PostgreSQL's 13.8 ms on a list of
        // 1,000 untagged devices, set up and run again for each; a full list pays the probe.
        const rows = from(below);
        return `CASE WHEN EXISTS (SELECT 1 ${rows}) THEN ${arrayJson(json, rows, orderSql(this.index, target, target.ordering, below))} ELSE '[]' END`;
      },
      nestedRenderer: (target, fields) => this.nestedRenderer(target, depth + 1, version, fields),
      displayExpr: (dm, dalias) => this.displayExpr(dm, dalias),
      assume: (key, probe) => {
        const believed = this.facts.get(key) ?? "";
        if (!assumptions.some((a) => a.key === key)) assumptions.push({ key, probe, believed });
        return believed;
      },
    };
  }

  /** A JSON object expression of `m` in nested shape, for the row aliased `alias`. */
  private nestedJson(m: ModelDescriptor, alias: string, depth: number, version: string, only: string[] | undefined, assumptions: Assumption[]): string {
    const ctx = this.context(m, alias, depth, "nested", version, assumptions);
    const args: string[] = [];
    for (const f of this.fieldsOf(m, "nested", version, only)) {
      const expr = kindOf(f).read?.(f, ctx);
      if (expr) args.push(`${literal(f.name)}, ${expr}`);
    }
    return `json_build_object(${args.join(", ")})`;
  }

  /** The JSON text of `m` in nested form for the row aliased `alias`; undefined when a field has none. */
  private nestedJsonText(m: ModelDescriptor, alias: string, depth: number, version: string, only: string[] | undefined, assumptions: Assumption[]): string | undefined {
    return this.objectJson(this.fieldsOf(m, "nested", version, only), this.context(m, alias, depth, "nested", version, assumptions));
  }

  /** The JSON text of an object of `fields`, each as its kind writes it; undefined when one's kind cannot. */
  private objectJson(fields: FieldDescriptor[], ctx: ReadContext): string | undefined {
    const entries = this.entriesOf(fields, ctx);
    return entries && objectJson(entries);
  }

  /** Each field's name and the SQL of its JSON text; undefined when one's kind cannot write it. */
  private entriesOf(fields: FieldDescriptor[], ctx: ReadContext): Array<[string, string]> | undefined {
    const entries: Array<[string, string]> = [];
    for (const f of fields) {
      const json = kindOf(f).json?.(f, ctx);
      if (json === undefined) return undefined;
      entries.push([f.name, json]);
    }
    return entries;
  }

  displayExpr(m: ModelDescriptor, alias: string, parts = m.display): string {
    const pieces = parts.map((p) => {
      if ("text" in p) return literal(p.text);
      if ("first" in p) return this.firstExpr(m, alias, p.first);
      return this.pieceExpr(p, this.pathExpr(m, alias, p.path, 0, p.as));
    });
    return pieces.length === 1 ? pieces[0] : `concat(${pieces.join(", ")})`;
  }

  private pieceExpr(p: { last?: number }, text: string): string {
    const expr = `coalesce(${text}, '')`;
    return p.last ? `right(${expr}, ${p.last})` : expr;
  }

  /**
   * A display's first alternative with none of its paths empty. A run of alternatives that
   * follow links is one sub-select that joins each link once and yields NULL where none
   * holds. Written path by path, as sub-selects in each test and again in each text, a
   * location's display (its three ancestors' names) was twenty sub-selects to plan and set
   * up in every statement that shows a location. An alternative that follows no link is
   * tested on its own, ahead of the joins: a device with a name joins nothing.
   */
  private firstExpr(m: ModelDescriptor, alias: string, alternatives: DisplayPart[][]): string {
    const out: string[] = [];
    let joins: string[] = [];
    let joined = new Map<string, { model: ModelDescriptor; alias: string }>();
    let branches: string[] = [];
    const flush = () => {
      if (!branches.length) return;
      out.push(`(SELECT CASE ${branches.join(" ")} END FROM (SELECT) one ${joins.join(" ")})`);
      [joins, joined, branches] = [[], new Map(), []];
    };
    for (const alt of alternatives) {
      let links = false;
      const text = (p: Extract<DisplayPart, { path: string[] }>) => {
        let at = { model: m, alias };
        for (let n = 0; n < p.path.length - 1; n++) {
          links = true;
          const key = p.path.slice(0, n + 1).join(".");
          let next = joined.get(key);
          if (!next) {
            const link = this.index.field(at.model, p.path[n])!;
            if (!isLink(link)) throw new Error(`${m.key}: display path ${p.path.join(".")} does not follow links`);
            next = { model: this.index.model(link.target), alias: `${alias}d${joined.size}` };
            joined.set(key, next);
            joins.push(`LEFT JOIN ${ident(next.model.table)} ${next.alias} ON ${next.alias}.id = ${col(at.alias, link.column)}`);
          }
          at = next;
        }
        return this.pieceExpr(p, this.pathExpr(at.model, at.alias, p.path.slice(-1), 0, p.as));
      };
      const pieces = alt.map((p) => ("text" in p ? literal(p.text) : "first" in p ? this.displayExpr(m, alias, [p]) : text(p)));
      const tests = alt.flatMap((p, n) => ("path" in p ? [`${pieces[n]} <> ''`] : []));
      const shown = pieces.length === 1 ? pieces[0] : `concat(${pieces.join(", ")})`;
      if (links) {
        branches.push(`WHEN ${tests.join(" AND ")} THEN ${shown}`);
        continue;
      }
      flush();
      out.push(tests.length ? `CASE WHEN ${tests.join(" AND ")} THEN ${shown} END` : shown);
    }
    flush();
    return `coalesce(${[...out, "''"].join(", ")})`;
  }

  /** The text of a display path from the row aliased `alias`: a column (as its kind words it), or one reached through links. */
  private pathExpr(m: ModelDescriptor, alias: string, path: string[], depth: number, transform?: DisplayTransform): string {
    const head = this.index.field(m, path[0])!;
    if (path.length === 1) {
      const column = storedColumn(head);
      if (head.kind === "id") return `${alias}.id::text`;
      if (!column) return "''";
      return kindOf(head).displayText?.(head, col(alias, column), transform) ?? `${col(alias, column)}::text`;
    }
    if (!isLink(head)) throw new Error(`${m.key}: display path ${path.join(".")} does not follow links`);
    const target = this.index.model(head.target);
    const d = `d${depth}`;
    return `(SELECT ${this.pathExpr(target, d, path.slice(1), depth + 1, transform)} FROM ${ident(target.table)} ${d} WHERE ${d}.id = ${col(alias, head.column)})`;
  }

  private nestedRenderer(m: ModelDescriptor, depth: number, version: string, only?: string[]) {
    const ctx = this.context(m, "", depth, "nested", version);
    const renders = this.fieldsOf(m, "nested", version, only).map((f) => [f.name, kindOf(f).render?.(f, ctx) ?? identity] as const);
    return (obj: Record<string, unknown>, rctx: RenderContext) => {
      const out: Record<string, unknown> = {};
      for (const [name, r] of renders) out[name] = r(obj[name], rctx, obj, out);
      return out;
    };
  }
}
