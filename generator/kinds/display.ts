// The display string: nothing stored, computed from the model's display template.
import type { DisplayField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

export const display: GeneratorFieldKind<DisplayField> = {
  readSchema: () => ({ type: "string", readOnly: true }),
};
