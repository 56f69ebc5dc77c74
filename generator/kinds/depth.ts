// A tree node's depth: nothing stored, counted through the parent links when read.
import type { DepthField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

export const depth: GeneratorFieldKind<DepthField> = {
  readSchema: (f) => ({ type: "integer", readOnly: true, ...(f.onlyListed ? { nullable: true } : {}) }),
};
