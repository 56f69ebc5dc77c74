// A reverse relation: the rows of another model whose foreign key points here, read only.
// Up to `singleUntil` the API promised one object: several cannot be shown in that shape (412).
import { shownSingle, type ReverseField } from "../descriptor.js";
import { HttpError } from "../errors.js";
import { col } from "../query/sql.js";
import { listRender } from "./related.js";
import type { RuntimeFieldKind } from "./types.js";

export const reverse: RuntimeFieldKind<ReverseField> = {
  read: (f, ctx) => ctx.nestedList(ctx.index.model(f.target), (a) => `WHERE ${col(a, f.reverse.column)} = ${col(ctx.alias, "id")}`),
  render(f, ctx) {
    const list = listRender(ctx.index.model(f.target), ctx);
    const versions = ctx.index.api.versions.supported;
    if (!shownSingle(f, ctx.version, versions)) return list;
    const until = f.reverse.singleUntil!;
    return (v, rctx, row) => {
      const items = list(v, rctx, row) as unknown[];
      if (items.length > 1) {
        throw new HttpError(412, `This object does not conform to pre-${versions[versions.indexOf(until) + 1] ?? until} behavior. Please correct data or use API version ${versions.at(-1)}.`, "precondition_failed");
      }
      return items[0] ?? null;
    };
  },
  options: { type: () => "field" },
};
