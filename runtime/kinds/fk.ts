// A foreign key: read as the target's nested form (a bare id beyond the nesting limit),
// written as an id or an attribute dictionary.
import type { FkField, TreeParentField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import { col } from "../query/sql.js";
import { writeByValue, type OptionsContext, type ReadContext, type Render, type RuntimeFieldKind } from "./types.js";

/** Reading and OPTIONS of a link to one row, shared with tree parents. */
export const link = {
  read(f: FkField | TreeParentField, ctx: ReadContext): string {
    if (!ctx.canNest) return col(ctx.alias, f.column);
    return ctx.nestedObject(ctx.index.model(f.target), (a) => `${a}.id = ${col(ctx.alias, f.column)}`, "shape" in f ? f.shape : undefined);
  },
  json(f: FkField | TreeParentField, ctx: ReadContext): string | undefined {
    const key = col(ctx.alias, f.column);
    if (!ctx.canNest) return scalarJson(key);
    return ctx.linkedObjectJson(ctx.index.model(f.target), key, "shape" in f ? f.shape : undefined);
  },
  render(f: FkField | TreeParentField, ctx: ReadContext): Render {
    if (!ctx.canNest) return (v) => v;
    const nested = ctx.nestedRenderer(ctx.index.model(f.target), "shape" in f ? f.shape : undefined);
    return (v, rctx) => (v == null ? null : nested(v as Record<string, unknown>, rctx));
  },
  options: {
    type: () => "nested object",
    describe(f: { target: string }, info: Record<string, unknown>, ctx: OptionsContext) {
      const children = ctx.children(f.target);
      if (children) info.children = children;
    },
  },
};

/** Whether the spec asks for the bare id here: everywhere, or in nested and brief forms. */
const bare = (f: FkField, ctx: ReadContext) => f.asId === true || (f.idWhenNested === true && ctx.shape !== "full");

export const fk: RuntimeFieldKind<FkField> = {
  read: (f, ctx) => (bare(f, ctx) ? col(ctx.alias, f.column) : link.read(f, ctx)),
  render: (f, ctx) => (bare(f, ctx) ? (v) => v ?? null : link.render(f, ctx)),
  json: (f, ctx) => (bare(f, ctx) ? scalarJson(col(ctx.alias, f.column)) : link.json(f, ctx)),
  ...writeByValue<FkField, string | null>({
    resolve: (f, value, ctx) => ctx.resolve(f.target, value, f.nullable),
    apply(f, id, ctx) {
      ctx.row[f.column] = id;
    },
  }),
  checksOwnValue: true,
  onCreate(f, { row, userId }) {
    if (f.fromRequestUser) row[f.column] = userId ?? null;
  },
  options: link.options,
};
