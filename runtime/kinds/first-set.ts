// The first of several foreign keys (to one model) that is set, read only, in the target's
// nested form: Nautobot's `primary_ip`, the preferred of `primary_ip6` and `primary_ip4`.
import type { FirstSetField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import { col } from "../query/sql.js";
import { link } from "./fk.js";
import type { RuntimeFieldKind } from "./types.js";

const chosen = (f: FirstSetField, alias: string) => `coalesce(${f.columns.map((c) => col(alias, c)).join(", ")})`;

export const firstSet: RuntimeFieldKind<FirstSetField> = {
  read: (f, ctx) => (ctx.canNest ? ctx.nestedObject(ctx.index.model(f.target), (a) => `${a}.id = ${chosen(f, ctx.alias)}`) : chosen(f, ctx.alias)),
  json: (f, ctx) => (ctx.canNest
    ? ctx.nestedObjectJson(ctx.index.model(f.target), (a) => `${a}.id = ${chosen(f, ctx.alias)}`)
    : scalarJson(chosen(f, ctx.alias))),
  render(f, ctx) {
    if (!ctx.canNest) return (v) => v ?? null;
    const nested = ctx.nestedRenderer(ctx.index.model(f.target));
    return (v, rctx) => (v == null ? null : nested(v as Record<string, unknown>, rctx));
  },
  options: link.options,
};
