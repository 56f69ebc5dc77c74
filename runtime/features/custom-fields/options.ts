// OPTIONS for a model with custom fields. Nautobot 1.5's metadata class describes
// `custom_fields` as a plain DRF field only; this adds, as DRF describes a nested
// serializer's fields, a `children` entry per custom field: its DRF field type, whether it is
// required, its label and, for selections, its choices; keyed as the version keys the values.
import type { CustomFieldsField, ModelDescriptor } from "../../descriptor.js";
import type { Db } from "../../kinds/types.js";
import { keyColumn, loadDefinitions } from "./definitions.js";

/** The DRF field a custom field's type becomes in a form (`CustomField.to_form_field`), as OPTIONS names it. */
const DRF_TYPES: Record<string, string> = {
  text: "string", integer: "integer", boolean: "boolean", date: "date", url: "url", select: "choice", "multi-select": "multiple choice", json: "json",
};

type Info = Record<string, unknown>;

export async function describeCustomFields(db: Db, m: ModelDescriptor, version: string, versions: string[], info: Info): Promise<Info> {
  const f = m.fields.find((x): x is CustomFieldsField => x.kind === "customFields");
  const actions = info.actions as Record<string, Info> | undefined;
  if (!f?.definitions || !actions) return info;
  const defs = await loadDefinitions(db, f.definitions, m.key);
  const key = keyColumn(f.definitions, version, versions);
  const children = Object.fromEntries(defs.map((cf) => [cf[key], {
    type: DRF_TYPES[cf.type] ?? "field",
    required: cf.required,
    read_only: false,
    label: cf.label || cf.name,
    ...(cf.choices.length || cf.type === "select" || cf.type === "multi-select" ? { choices: cf.choices.map((v) => ({ value: v, display_name: v })) } : {}),
  }]));
  const described = Object.fromEntries(Object.entries(actions).map(([method, fields]) => [
    method, f.name in fields ? { ...fields, [f.name]: { ...(fields[f.name] as Info), children } } : fields,
  ]));
  return { ...info, actions: described };
}
