// A reverse relation: the rows of another model whose foreign key points here. Nothing
// stored; read-only; one object (or null) up to `singleUntil`, a list after it; or, with
// `through`, the one pointing row's own link, with that row nested inside it.
import { shownSingle, type ReverseField } from "../../runtime/descriptor.js";
import type { ReverseField as ReverseSpec } from "../dsl/index.js";
import { fkColumn, modelKey, refKey } from "../ir/names.js";
import { checkPointsHere } from "./count.js";
import { nullable, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const reverseSpec: SpecRules<ReverseSpec, ReverseField> = {
  check(f, ctx) {
    checkPointsHere("reverse", f.of, ctx);
    if (f.singleUntil !== undefined && !ctx.versions.includes(f.singleUntil)) ctx.err(`version "${f.singleUntil}" is not a supported API version`);
    if (f.through !== undefined) {
      if (f.singleUntil !== undefined) ctx.err("a reverse relation with through is always one object: singleUntil does not apply");
      const [app, model] = f.of.split(".");
      const shown = ctx.resolve(`${app}.${model}`)?.spec.fields[f.through.show];
      if (shown?.kind !== "fk") ctx.err(`through.show must name a foreign key of ${app}.${model}`);
    }
  },
  build(f, common, { byRef }) {
    const [app, model, fkName] = f.of.split(".");
    const through = f.through
      ? { through: { show: f.through.show, as: f.through.as, target: refKey((byRef.get(`${app}.${model}`)!.fields[f.through.show] as { target: string }).target) } }
      : {};
    return {
      ...common,
      kind: "reverse",
      readOnly: true,
      target: modelKey(app, model),
      reverse: { column: fkColumn(fkName), ...(f.singleUntil ? { singleUntil: f.singleUntil } : {}), ...through },
    };
  },
};

export const reverse: GeneratorFieldKind<ReverseField> = {
  readSchema(f, { api, version, nestedRef, shapeOf }) {
    const item = nestedRef(f.target);
    const through = f.reverse.through;
    if (through) {
      // The shown model's nested fields plus the pointing row: one closed object, as nested forms are.
      const shown = shapeOf(through.target, api.models.find((m) => m.key === through.target)!.nested);
      const properties = { ...(shown.properties as Record<string, unknown>), [through.as]: item };
      return { ...nullable({ ...shown, properties, required: [...(shown.required as string[]), through.as] }, true), readOnly: true };
    }
    const single = shownSingle(f, version, api.versions.supported);
    return { ...(single ? nullable(item, true) : { type: "array", items: item }), readOnly: true };
  },
};
