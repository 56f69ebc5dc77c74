// JSON Schema fragments for fields, shared by the profile-specific OpenAPI emitters.
// Takes field descriptors; gives schema objects. Read and write forms differ (a foreign key
// reads as a nested object and is written as an id or attribute dictionary).
import type { FieldDescriptor } from "../../../runtime/descriptor.js";
import { componentName } from "../../ir/names.js";
import type { IrApi, IrModel } from "../../ir/index.js";

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export function describe(schema: Schema, f: FieldDescriptor): Schema {
  return f.description ? { ...schema, description: f.description } : schema;
}

export function modelByKey(api: IrApi, key: string): IrModel {
  const m = api.models.find((x) => x.key === key);
  if (!m) throw new Error(`no model ${key}`);
  return m;
}

export { componentName };
