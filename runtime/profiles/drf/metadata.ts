// OPTIONS responses in DRF's SimpleMetadata shape: the model's name, renderers, parsers and,
// per allowed write method, each field's type, flags, limits and `choices` as
// `{value, display}`. Built from descriptors once per model and version.
import type { FieldDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";

type Info = Record<string, unknown>;

function fieldType(f: FieldDescriptor): string {
  switch (f.kind) {
    case "id": return "string";
    case "count": case "depth": return "integer";
    case "fk": return "nested object";
    case "scalar":
      switch (f.type) {
        case "string": case "text": case "uuid": case "cidr": case "ip": case "password": return f.format === "email" ? "email" : "string";
        case "integer": return "integer";
        case "float": return "float";
        case "boolean": return "boolean";
        case "date": return "date";
        case "datetime": return "datetime";
        default: return "field";
      }
    default: return "field";
  }
}

function fieldInfo(index: ModelIndex, f: FieldDescriptor, version: string, depth = 0): Info {
  const info: Info = { type: fieldType(f), required: f.required, read_only: f.readOnly, label: f.label };
  if (f.description) info.help_text = f.description;
  if (f.maxLength) info.max_length = f.maxLength;
  if (f.minLength) info.min_length = f.minLength;
  if (f.min !== undefined) info.min_value = f.min;
  if (f.max !== undefined) info.max_value = f.max;
  if (f.kind === "choice" && !f.readOnly) info.choices = f.choices!.map(([value, display]) => ({ value, display }));
  if ((f.kind === "fk" || f.kind === "tags" || f.kind === "m2m") && depth === 0) {
    const target = index.model(f.target!);
    const children = Object.fromEntries(target.nested.map((n) => index.field(target, n)).filter((x): x is FieldDescriptor => !!x && index.inVersion(x, version))
      .map((x) => [x.name, fieldInfo(index, { ...x, readOnly: true, required: false }, version, depth + 1)]));
    if (f.kind === "fk") info.children = children;
    else info.child = { type: "nested object", required: false, read_only: false, children };
  }
  return info;
}

export function describeModel(index: ModelIndex, m: ModelDescriptor, version: string, methods: string[]): Info {
  // A field neither shown nor accepted is no serializer field at all.
  const fields = m.fields.filter((f) => index.inVersion(f, version) && !(f.readOnly && f.writeOnly));
  const actionInfo = Object.fromEntries(fields.map((f) => [f.name, fieldInfo(index, f, version)]));
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
