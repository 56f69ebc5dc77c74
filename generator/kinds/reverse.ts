// A reverse relation: the rows of another model whose foreign key points here. Nothing
// stored; read-only; one object (or null) up to `singleUntil`, a list after it.
import { shownSingle, type ReverseField } from "../../runtime/descriptor.js";
import type { ReverseField as ReverseSpec } from "../dsl/index.js";
import { fkColumn, modelKey } from "../ir/names.js";
import { checkPointsHere } from "./count.js";
import { nullable, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const reverseSpec: SpecRules<ReverseSpec, ReverseField> = {
  check(f, ctx) {
    checkPointsHere("reverse", f.of, ctx);
    if (f.singleUntil !== undefined && !ctx.versions.includes(f.singleUntil)) ctx.err(`version "${f.singleUntil}" is not a supported API version`);
  },
  build(f, common) {
    const [app, model, fkName] = f.of.split(".");
    return {
      ...common,
      kind: "reverse",
      readOnly: true,
      target: modelKey(app, model),
      reverse: { column: fkColumn(fkName), ...(f.singleUntil ? { singleUntil: f.singleUntil } : {}) },
    };
  },
};

export const reverse: GeneratorFieldKind<ReverseField> = {
  readSchema(f, { api, version, nestedRef }) {
    const item = nestedRef(f.target);
    const single = shownSingle(f, version, api.versions.supported);
    return { ...(single ? nullable(item, true) : { type: "array", items: item }), readOnly: true };
  },
};
