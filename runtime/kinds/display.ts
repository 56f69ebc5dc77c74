// The display string, computed in SQL from the model's display template.
import type { DisplayField } from "../descriptor.js";
import type { RuntimeFieldKind } from "./types.js";

export const display: RuntimeFieldKind<DisplayField> = {
  read: (_f, { model, alias, displayExpr }) => displayExpr(model, alias),
  options: { type: () => "field" },
};
