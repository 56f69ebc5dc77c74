// The display string, computed in SQL from the model's display template.
import type { DisplayField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import type { RuntimeFieldKind } from "./types.js";

export const display: RuntimeFieldKind<DisplayField> = {
  read: (_f, { model, alias, displayExpr }) => displayExpr(model, alias),
  json: (_f, { model, alias, displayExpr }) => scalarJson(displayExpr(model, alias)),
  options: { type: () => "field" },
  madeFromObject: true,
};
