// The object's URL: the request's API URL, the model's route and the id; nothing selected.
import type { UrlField } from "../descriptor.js";
import type { RuntimeFieldKind } from "./types.js";

export const url: RuntimeFieldKind<UrlField> = {
  render(_f, { model }) {
    const path = `${model.app}/${model.route}/`;
    return (_v, ctx, row) => `${ctx.apiUrl}${path}${row.id}/`;
  },
  options: { type: () => "field" },
};
