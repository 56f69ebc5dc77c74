// The object's own URL: nothing stored, made from the request's base URL when rendered.
import type { UrlField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

export const url: GeneratorFieldKind<UrlField> = {
  readSchema: () => ({ type: "string", format: "uri", readOnly: true }),
};
