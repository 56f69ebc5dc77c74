// OPTIONS responses in DRF's SimpleMetadata shape: the model's name, renderers, parsers and,
// per allowed write method, each field's type, flags, limits and `choices` as
// `{value, display}`. Built from descriptors, plus what field kinds read from the data (a
// status field's choices) at each request.
import type { FieldDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { kindOf } from "../../kinds/index.js";
import type { Db } from "../../kinds/types.js";

type Info = Record<string, unknown>;

function fieldInfo(index: ModelIndex, f: FieldDescriptor, version: string, depth = 0): Info {
  const kind = kindOf(f);
  const info: Info = { type: kind.options.type(f), required: index.requiredIn(f, version), read_only: f.readOnly, label: f.label };
  if (f.description) info.help_text = f.description;
  kind.options.describe?.(f, info, {
    // Only the first level lists a related model's fields (its nested form, the same in every
    // version), each shown read-only and optional.
    children: (key) => {
      if (depth > 0) return null;
      const target = index.model(key);
      return Object.fromEntries(target.nested.map((n) => index.field(target, n)).filter((x): x is FieldDescriptor => !!x)
        .map((x) => [x.name, fieldInfo(index, { ...x, readOnly: true, required: false }, version, depth + 1)]));
    },
  });
  return info;
}

export async function describeModel(db: Db, index: ModelIndex, m: ModelDescriptor, version: string, methods: string[]): Promise<Info> {
  // A field neither shown nor accepted is no serializer field at all.
  const fields = m.fields.filter((f) => index.inVersion(f, version) && !(f.readOnly && f.writeOnly) && !f.nestedOnly);
  const actionInfo: Info = {};
  for (const f of fields) {
    const live = methods.length ? await kindOf(f).options.live?.(f, db) : undefined;
    actionInfo[f.name] = { ...fieldInfo(index, f, version), ...live };
  }
  const actions: Info = {};
  for (const method of methods) actions[method] = actionInfo;
  return {
    name: m.verboseName,
    description: m.description,
    renders: ["application/json", "text/html"],
    parses: ["application/json"],
    ...(methods.length ? { actions } : {}),
  };
}
