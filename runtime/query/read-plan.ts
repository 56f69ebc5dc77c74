// Read plans: for a model, a shape (full, nested, brief) and an API version, one SQL select
// list that returns everything the response needs (nested related objects, tags and counts
// as JSON sub-selects: one statement, never a query per row), and the function that turns
// a result row into the response object. Plans are built once and cached.
import type { FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { col, ident, literal } from "./sql.js";
import { HttpError } from "../errors.js";

export type Shape = "full" | "nested" | "brief";

export interface RenderContext {
  /** `http://host` plus the API base path, for building `url`s. */
  apiUrl: string;
}

export interface ReadPlan {
  /** Select list over the alias `t0`. */
  select: string;
  render: (row: Record<string, unknown>, ctx: RenderContext) => Record<string, unknown>;
}

type Render = (value: unknown, ctx: RenderContext, row: Record<string, unknown>) => unknown;

const MAX_NESTING = 2;

export class ReadPlans {
  private readonly cache = new Map<string, ReadPlan>();

  constructor(private readonly index: ModelIndex) {}

  get(m: ModelDescriptor, shape: Shape, version: string): ReadPlan {
    const key = `${m.key}|${shape}|${version}`;
    let plan = this.cache.get(key);
    if (!plan) {
      plan = this.build(m, shape, version);
      this.cache.set(key, plan);
    }
    return plan;
  }

  private fieldsOf(m: ModelDescriptor, shape: Shape, version: string): FieldDescriptor[] {
    const readable = (f: FieldDescriptor | undefined): f is FieldDescriptor =>
      !!f && !f.writeOnly && this.index.inVersion(f, version);
    if (shape === "full") return m.fields.filter(readable);
    const names = shape === "nested" ? m.nested : m.brief;
    return names.map((n) => this.index.field(m, n)).filter(readable);
  }

  private build(m: ModelDescriptor, shape: Shape, version: string): ReadPlan {
    const fields = this.fieldsOf(m, shape, version);
    const parts: string[] = [];
    const renders: Array<[string, Render]> = [];
    for (const f of fields) {
      const expr = this.expr(m, f, "t0", 0, version);
      if (expr) parts.push(`${expr} AS ${ident(f.name)}`);
      renders.push([f.name, this.renderer(m, f, 0, shape, version)]);
    }
    return {
      select: parts.join(", "),
      render: (row, ctx) => {
        const out: Record<string, unknown> = {};
        for (const [name, r] of renders) out[name] = r(row[name], ctx, row);
        return out;
      },
    };
  }

  /** A JSON object expression of `m` in nested shape, for the row aliased `alias`. */
  private nestedJson(m: ModelDescriptor, alias: string, depth: number, version: string): string {
    const args: string[] = [];
    for (const f of this.fieldsOf(m, "nested", version)) {
      const expr = this.expr(m, f, alias, depth, version);
      if (expr) args.push(`${literal(f.name)}, ${expr}`);
    }
    return `json_build_object(${args.join(", ")})`;
  }

  displayExpr(m: ModelDescriptor, alias: string): string {
    const pieces = m.display.map((p) => {
      if ("text" in p) return literal(p.text);
      let expr: string;
      const head = this.index.field(m, p.path[0])!;
      if (p.path.length === 1) {
        expr = head.kind === "choice" || head.kind === "scalar" || head.kind === "fk" ? `${col(alias, head.column!)}::text` : "''";
      } else {
        const target = this.index.model(head.target!);
        const leaf = this.index.field(target, p.path[1])!;
        expr = `(SELECT ${col("d", leaf.column!)}::text FROM ${ident(target.table)} d WHERE d.id = ${col(alias, head.column!)})`;
      }
      expr = `coalesce(${expr}, '')`;
      return p.last ? `right(${expr}, ${p.last})` : expr;
    });
    return pieces.length === 1 ? pieces[0] : `concat(${pieces.join(", ")})`;
  }

  private expr(m: ModelDescriptor, f: FieldDescriptor, alias: string, depth: number, version: string): string | null {
    switch (f.kind) {
      case "id": return col(alias, "id");
      case "url": return null;
      case "display": return this.displayExpr(m, alias);
      case "scalar":
        switch (f.type) {
          case "date": return `to_char(${col(alias, f.column!)}, 'YYYY-MM-DD')`;
          case "datetime": return `to_char(${col(alias, f.column!)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
          case "cidr": case "ip": return `${col(alias, f.column!)}::text`;
          case "integer": return `${col(alias, f.column!)}::float8`;
          default: return col(alias, f.column!);
        }
      case "choice": return col(alias, f.column!);
      case "ipFamily": return `family(${col(alias, this.index.field(m, f.from!)!.column!)})`;
      case "customFields": return col(alias, f.column!);
      case "count": {
        const c = f.count!;
        if (!c.descendants) return `(SELECT count(*) FROM ${ident(c.table)} c WHERE ${col("c", c.column)} = ${col(alias, "id")})::int`;
        return `(WITH RECURSIVE sub AS (SELECT ${col(alias, "id")} AS id UNION ALL SELECT s.id FROM ${ident(m.table)} s JOIN sub ON s."parent_id" = sub.id) ` +
          `SELECT count(*) FROM ${ident(c.table)} c WHERE ${col("c", c.column)} IN (SELECT id FROM sub))::int`;
      }
      case "depth":
        return `(WITH RECURSIVE up AS (SELECT ${col(alias, "parent_id")} AS pid, 0 AS depth UNION ALL ` +
          `SELECT p."parent_id", up.depth + 1 FROM ${ident(m.table)} p JOIN up ON p.id = up.pid) SELECT max(depth) FROM up)`;
      case "fk": {
        if (depth >= MAX_NESTING) return col(alias, f.column!);
        const target = this.index.model(f.target!);
        const a = `n${depth + 1}`;
        return `(SELECT ${this.nestedJson(target, a, depth + 1, version)} FROM ${ident(target.table)} ${a} WHERE ${a}.id = ${col(alias, f.column!)})`;
      }
      case "tags": case "m2m": {
        const through = f.through!;
        const where = f.kind === "tags"
          ? `j."object_type" = ${literal(m.key)} AND j."object_id" = ${col(alias, "id")}`
          : `${col("j", through.source)} = ${col(alias, "id")}`;
        return this.nestedList(f, depth, version, (a) => `JOIN ${ident(through.table)} j ON ${col("j", through.target)} = ${a}.id WHERE ${where}`);
      }
      case "reverse":
        return this.nestedList(f, depth, version, (a) => `WHERE ${col(a, f.reverse!.column)} = ${col(alias, "id")}`);
    }
    return null;
  }

  /** A JSON array of `f.target` rows in nested shape, in the target's ordering; `rest` joins and filters them. */
  private nestedList(f: FieldDescriptor, depth: number, version: string, rest: (alias: string) => string): string {
    const target = this.index.model(f.target!);
    const a = `n${depth + 1}`;
    const order = target.ordering.map((o) => `${col(a, this.index.field(target, o.field)?.column ?? "id")}${o.desc ? " DESC" : ""}`).join(", ") || `${a}.id`;
    return `(SELECT coalesce(json_agg(${this.nestedJson(target, a, depth + 1, version)} ORDER BY ${order}), '[]'::json) ` +
      `FROM ${ident(target.table)} ${a} ${rest(a)})`;
  }

  private renderer(m: ModelDescriptor, f: FieldDescriptor, depth: number, shape: Shape, version: string): Render {
    switch (f.kind) {
      case "url": {
        const path = `${m.app}/${m.route}/`;
        return (_v, ctx, row) => `${ctx.apiUrl}${path}${row.id}/`;
      }
      case "choice": {
        const labels = new Map(f.choices!.map(([v, l]) => [String(v), l]));
        return (v) => (v === null || v === "" || v === undefined ? null : { value: v, label: labels.get(String(v)) ?? String(v) });
      }
      case "ipFamily":
        return shape === "full" ? (v) => (v == null ? null : { value: v, label: `IPv${v}` }) : (v) => v;
      case "fk": {
        if (depth >= MAX_NESTING) return (v) => v;
        const target = this.index.model(f.target!);
        const nested = this.nestedRenderer(target, depth + 1, version);
        return (v, ctx) => (v == null ? null : nested(v as Record<string, unknown>, ctx));
      }
      case "tags": case "m2m": case "reverse": {
        const nested = this.nestedRenderer(this.index.model(f.target!), depth + 1, version);
        const list: Render = (v, ctx) => (v as Array<Record<string, unknown>>).map((o) => nested(o, ctx));
        const until = f.reverse?.singleUntil;
        if (until === undefined || !this.index.atOrBefore(version, until)) return list;
        // Older versions promised one object; several cannot be shown in that shape.
        const versions = this.index.api.versions.supported;
        return (v, ctx, row) => {
          const items = list(v, ctx, row) as unknown[];
          if (items.length > 1) {
            throw new HttpError(412, `This object does not conform to pre-${versions[versions.indexOf(until) + 1] ?? until} behavior. Please correct data or use API version ${versions.at(-1)}.`, "precondition_failed");
          }
          return items[0] ?? null;
        };
      }
      default:
        return (v) => v;
    }
  }

  private nestedRenderer(m: ModelDescriptor, depth: number, version: string) {
    const renders = this.fieldsOf(m, "nested", version).map((f) => [f.name, this.renderer(m, f, depth, "nested", version)] as const);
    return (obj: Record<string, unknown>, ctx: RenderContext) => {
      const out: Record<string, unknown> = {};
      for (const [name, r] of renders) out[name] = r(obj[name], ctx, obj);
      return out;
    };
  }
}
