// The object's URL: the request's API URL, the model's route and the id (and the field's
// path below it, for a route of the object's own); nothing selected.
import { modelRoute, type UrlField } from "../descriptor.js";
import { API_URL_MARKER, urlStart } from "../query/json-text.js";
import { col, literal } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const url: RuntimeFieldKind<UrlField> = {
  render(f, { model }) {
    const path = `${modelRoute(model)}/`;
    const below = f.path ?? "";
    return (_v, ctx, row) => `${ctx.apiUrl}${path}${row.id}/${below}`;
  },
  json: (f, { model, alias }) =>
    `${urlStart(API_URL_MARKER, `${modelRoute(model)}/`)} || ${col(alias, "id")} || ${literal(`/${JSON.stringify(f.path ?? "").slice(1, -1)}"`)}`,
  options: { type: () => "field" },
  madeFromObject: true,
};
