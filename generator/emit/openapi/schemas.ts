// JSON Schema fragments for fields, shared by the profile-specific OpenAPI emitters.
// Takes field descriptors; gives schema objects. Read and write forms differ (a foreign key
// reads as a nested object and is written as an id or attribute dictionary).
import type { FieldDescriptor } from "../../../runtime/descriptor.js";
import { componentName } from "../../ir/names.js";
import type { IrApi, IrModel } from "../../ir/index.js";

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export function nullable(schema: Schema, isNullable: boolean): Schema {
  if (!isNullable) return schema;
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

export function inVersion(f: FieldDescriptor, version: string, versions: string[]): boolean {
  const idx = versions.indexOf(version);
  if (f.since && idx < versions.indexOf(f.since)) return false;
  if (f.until && idx > versions.indexOf(f.until)) return false;
  return true;
}

/** A reverse relation that this version shows as one object (or null) rather than a list. */
export function shownSingle(f: FieldDescriptor, version: string, versions: string[]): boolean {
  const until = f.reverse?.singleUntil;
  return until !== undefined && versions.indexOf(version) <= versions.indexOf(until);
}

export function scalarSchema(f: FieldDescriptor): Schema {
  const s: Schema = {};
  switch (f.type) {
    case "uuid": Object.assign(s, { type: "string", format: "uuid" }); break;
    case "string": case "text": case "password": case "cidr": case "ip":
      s.type = "string";
      if (f.maxLength) s.maxLength = f.maxLength;
      if (f.minLength) s.minLength = f.minLength;
      // A blank-allowed email field holds "" when unset, and "" is no email address.
      if (f.format === "email") Object.assign(s, f.blank ? { anyOf: [{ format: "email" }, { const: "" }] } : { format: "email" });
      if (f.format === "color") s.pattern = "^[0-9a-f]{6}$";
      if (f.pattern) s.pattern = f.pattern.regex;
      if ((f.type === "string" || f.type === "text") && f.blank === false) s.minLength = Math.max(1, f.minLength ?? 1);
      break;
    case "integer": s.type = "integer"; break;
    case "float": s.type = "number"; break;
    case "boolean": s.type = "boolean"; break;
    case "date": Object.assign(s, { type: "string", format: "date" }); break;
    case "datetime": Object.assign(s, { type: "string", format: "date-time" }); break;
    case "json": break;
  }
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  return s;
}

export function describe(schema: Schema, f: FieldDescriptor): Schema {
  return f.description ? { ...schema, description: f.description } : schema;
}

export function modelByKey(api: IrApi, key: string): IrModel {
  const m = api.models.find((x) => x.key === key);
  if (!m) throw new Error(`no model ${key}`);
  return m;
}

export { componentName };
