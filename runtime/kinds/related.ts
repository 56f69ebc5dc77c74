// What the kinds holding other rows share: rendering nested lists, OPTIONS children, and
// turning a written list of references into ids.
import type { ModelDescriptor } from "../descriptor.js";
import { pyType } from "../text/python.js";
import { FieldProblem, type OptionsContext, type ReadContext, type Render, type WriteContext } from "./types.js";

export function listRender(target: ModelDescriptor, ctx: ReadContext): Render {
  const nested = ctx.nestedRenderer(target);
  return (v, rctx) => (v as Array<Record<string, unknown>>).map((o) => nested(o, rctx));
}

/** OPTIONS of a list of related objects: DRF's ListSerializer `child` with the target's nested fields. */
export function listOptions(target: string, info: Record<string, unknown>, ctx: OptionsContext): void {
  const children = ctx.children(target);
  if (children) info.child = { type: "nested object", required: false, read_only: false, children };
}

/** A written list of references (ids or attribute dictionaries) as distinct ids, in order. */
export async function resolveList(target: string, value: unknown, ctx: WriteContext): Promise<string[]> {
  if (!Array.isArray(value)) throw new FieldProblem(`Expected a list of items but got type "${pyType(value)}".`);
  const ids: string[] = [];
  for (const item of value) {
    const id = await ctx.resolve(target, item, false);
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
