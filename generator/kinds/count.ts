// A count of rows pointing here: nothing stored, counted by a sub-select when read.
import type { CountField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

export const count: GeneratorFieldKind<CountField> = {
  readSchema: () => ({ type: "integer", readOnly: true }),
};
