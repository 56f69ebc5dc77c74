// The object's URL: the request's API URL, the model's route and the id (and the field's
// path below it, for a route of the object's own); nothing selected.
import { modelRoute, type UrlField } from "../descriptor.js";
import type { RuntimeFieldKind } from "./types.js";

export const url: RuntimeFieldKind<UrlField> = {
  render(f, { model }) {
    const path = `${modelRoute(model)}/`;
    const below = f.path ?? "";
    return (_v, ctx, row) => `${ctx.apiUrl}${path}${row.id}/${below}`;
  },
  options: { type: () => "field" },
};
