// What the kinds holding other rows share: rendering nested lists and OPTIONS children.
import type { ModelDescriptor } from "../descriptor.js";
import type { OptionsContext, ReadContext, Render } from "./types.js";

export function listRender(target: ModelDescriptor, ctx: ReadContext): Render {
  const nested = ctx.nestedRenderer(target);
  return (v, rctx) => (v as Array<Record<string, unknown>>).map((o) => nested(o, rctx));
}

/** OPTIONS of a list of related objects: DRF's ListSerializer `child` with the target's nested fields. */
export function listOptions(target: string, info: Record<string, unknown>, ctx: OptionsContext): void {
  const children = ctx.children(target);
  if (children) info.child = { type: "nested object", required: false, read_only: false, children };
}
