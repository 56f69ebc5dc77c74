// A reverse relation: the rows of another model whose foreign key points here. Nothing
// stored; read-only; one object (or null) up to `singleUntil`, a list after it.
import type { ReverseField } from "../../runtime/descriptor.js";
import { shownSingle } from "../emit/openapi/schemas.js";
import { nullable, type GeneratorFieldKind } from "./types.js";

export const reverse: GeneratorFieldKind<ReverseField> = {
  readSchema(f, { api, version, nestedRef }) {
    const item = nestedRef(f.target);
    const single = shownSingle(f, version, api.versions.supported);
    return { ...(single ? nullable(item, true) : { type: "array", items: item }), readOnly: true };
  },
};
