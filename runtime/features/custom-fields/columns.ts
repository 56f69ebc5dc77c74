// The custom fields of a model as a flat file's columns: each definition's key (as API version
// `version` keys the values) and type, read once for a whole file, since a file's header is
// written before its first row and must name every custom field any row may hold.
import type { CustomFieldsField, ModelDescriptor } from "../../descriptor.js";
import type { Db } from "../../kinds/types.js";
import { keyColumn, loadDefinitions } from "./definitions.js";

export interface CustomFieldColumn {
  key: string;
  /** Nautobot's custom field type (`text`, `integer`, `boolean`, `multi-select`, `json`, …). */
  type: string;
}

/** The custom fields defined for `m`, in their order (weight, name); none for a model without them. */
export async function customFieldColumns(db: Db, m: ModelDescriptor, version: string, versions: string[]): Promise<CustomFieldColumn[]> {
  const f = m.fields.find((x): x is CustomFieldsField => x.kind === "customFields");
  if (!f?.definitions) return [];
  const key = keyColumn(f.definitions, version, versions);
  const defs = await loadDefinitions(db, f.definitions, m.key);
  return defs.map((d) => ({ key: d[key], type: d.type }));
}
