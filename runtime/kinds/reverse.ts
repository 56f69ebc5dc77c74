// A reverse relation: the rows of another model whose foreign key points here, read only.
// Up to `singleUntil` the API promised one object: several cannot be shown in that shape (412).
// With `through`, the one pointing row's own link, with the row nested in it.
import { shownSingle, type FkField, type ReverseField } from "../descriptor.js";
import { HttpError } from "../errors.js";
import { col, ident, literal } from "../query/sql.js";
import { listRender, rowsWhere } from "./related.js";
import type { ReadContext, Render, RuntimeFieldKind } from "./types.js";

/** The shown row's and the link's own row's conditions, given the one link row pointing here. */
function throughRows(f: ReverseField, ctx: ReadContext) {
  const link = ctx.index.model(f.target);
  const show = ctx.index.field(link, f.reverse.through!.show) as FkField;
  // The link is one-to-one: LIMIT 1 keeps a stray second row from failing the whole read.
  const pointing = (column: string) =>
    `(SELECT ${col("l", column)} FROM ${ident(link.table)} l WHERE ${col("l", f.reverse.column)} = ${col(ctx.alias, "id")} ORDER BY l.id LIMIT 1)`;
  return {
    link, shown: ctx.index.model(show.target),
    shownWhere: (a: string) => `${a}.id = ${pointing(show.column)}`,
    linkWhere: (a: string) => `${a}.id = ${pointing("id")}`,
  };
}

function throughRead(f: ReverseField, ctx: ReadContext): string {
  const r = throughRows(f, ctx);
  const shown = ctx.nestedObject(r.shown, r.shownWhere);
  const row = ctx.nestedObject(r.link, r.linkWhere);
  return `(${shown})::jsonb || jsonb_build_object(${literal(f.reverse.through!.as)}, ${row})`;
}

function throughRender(f: ReverseField, ctx: ReadContext): Render {
  const through = f.reverse.through!;
  const shown = ctx.nestedRenderer(ctx.index.model(through.target));
  const row = ctx.nestedRenderer(ctx.index.model(f.target));
  return (v, rctx) => {
    if (v === null || v === undefined) return null;
    const o = v as Record<string, unknown>;
    return { ...shown(o, rctx), [through.as]: row(o[through.as] as Record<string, unknown>, rctx) };
  };
}

/** The JSON text of `throughRead`'s value: the shown row's nested form with the link's own under `as`. */
function throughJson(f: ReverseField, ctx: ReadContext): string | undefined {
  const r = throughRows(f, ctx);
  const shown = ctx.nestedObjectJson(r.shown, r.shownWhere);
  const row = ctx.nestedObjectJson(r.link, r.linkWhere);
  if (shown === undefined || row === undefined) return undefined;
  // The shown object is never empty: its last brace gives way to one more key.
  const key = literal(`,${JSON.stringify(f.reverse.through!.as)}:`);
  // Most rows have no link (a device installed in no bay): one probe tells so, where the
  // lookups of the shown row through it cost a list of 1,000 devices 1.1 ms of PostgreSQL's 15.
  const linked = `EXISTS (SELECT FROM ${ident(r.link.table)} l WHERE ${col("l", f.reverse.column)} = ${col(ctx.alias, "id")})`;
  return `CASE WHEN ${linked} THEN (SELECT CASE WHEN x.s = 'null' THEN 'null' ELSE concat(left(x.s, -1), ${key}, x.r, '}') END FROM (SELECT ${shown} AS s, ${row} AS r) x) ELSE 'null' END`;
}

export const reverse: RuntimeFieldKind<ReverseField> = {
  read: (f, ctx) => (f.reverse.through
    ? throughRead(f, ctx)
    : ctx.nestedList(ctx.index.model(f.target), rowsWhere(ctx.index.model(f.target), (a) => `${col(a, f.reverse.column)} = ${col(ctx.alias, "id")}`))),
  render(f, ctx) {
    if (f.reverse.through) return throughRender(f, ctx);
    const list = listRender(ctx.index.model(f.target), ctx);
    const versions = ctx.index.api.versions.supported;
    if (!shownSingle(f, ctx.version, versions)) return list;
    // The refusal names the first version that shows the list, whatever the newest is, as Nautobot's does.
    const until = f.reverse.singleUntil!;
    const next = versions[versions.indexOf(until) + 1] ?? until;
    return (v, rctx, row, shown) => {
      const items = list(v, rctx, row, shown) as unknown[];
      if (items.length > 1) {
        throw new HttpError(412, { code: "precondition_failed", version: next });
      }
      return items[0] ?? null;
    };
  },
  // A version that promised one object refuses several: that is JavaScript's to decide.
  json(f, ctx) {
    if (f.reverse.through) return throughJson(f, ctx);
    if (shownSingle(f, ctx.version, ctx.index.api.versions.supported)) return undefined;
    return ctx.nestedListJson(ctx.index.model(f.target), rowsWhere(ctx.index.model(f.target), (a) => `${col(a, f.reverse.column)} = ${col(ctx.alias, "id")}`));
  },
  options: { type: () => "field" },
};
