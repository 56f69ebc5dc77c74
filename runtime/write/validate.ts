// Write validation: compiles each model's writable schema from the API's own OpenAPI
// document with ajv (so the documented schema is the enforced one), once per version and
// mode, and turns ajv's errors into field-keyed DRF messages. Related objects are left to
// the resolver, which knows whether an id or attribute set matches anything.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ApiDescriptor, FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import { kindOf } from "../kinds/index.js";
import type { FieldErrors } from "../errors.js";


const addFormats = addFormatsModule as unknown as { default?: (a: Ajv2020) => void } & ((a: Ajv2020) => void);

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "dict";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v === "string" ? "str" : typeof v;
}

function message(e: ErrorObject, value: unknown, f: FieldDescriptor | undefined): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": return "This field is required.";
    case "type": {
      if (value === null) return "This field may not be null.";
      const t = String(p.type);
      if (t.includes("integer")) return "A valid integer is required.";
      if (t.includes("number")) return "A valid number is required.";
      if (t.includes("boolean")) return "Must be a valid boolean.";
      if (t.includes("array")) return `Expected a list of items but got type "${jsonType(value)}".`;
      if (t.includes("object")) return `Expected a dictionary of items but got type "${jsonType(value)}".`;
      return "Not a valid string.";
    }
    case "maxLength": return `Ensure this field has no more than ${p.limit} characters.`;
    case "minLength": return value === "" ? "This field may not be blank." : `Ensure this field has at least ${p.limit} characters.`;
    case "minimum": return `Ensure this value is greater than or equal to ${p.limit}.`;
    case "maximum": return `Ensure this value is less than or equal to ${p.limit}.`;
    case "enum":
      if (value === null) return "This field may not be null.";
      // Nautobot's ChoiceField takes only the bare value, never the `{value, label}` it renders.
      if (typeof value === "object") return 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.';
      // DRF's own ChoiceField (a plain choice) quotes the value; Nautobot's does not.
      return f?.kind === "choice" && f.plain ? `"${String(value)}" is not a valid choice.` : `${String(value)} is not a valid choice.`;
    case "pattern": {
      const scalar = f?.kind === "scalar" ? f : undefined;
      if (scalar?.type === "decimal") return "A valid number is required.";
      return scalar?.format === "color" ? "Enter a valid hexadecimal RGB color code." : scalar?.pattern?.message ?? "Enter a valid value.";
    }
    case "format":
      switch (p.format) {
        case "uuid": return "Must be a valid UUID.";
        case "email": return "Enter a valid email address.";
        case "uri": return "Enter a valid URL.";
        case "date": return "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.";
        case "date-time": return "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].";
        default: return "Enter a valid value.";
      }
    default: return e.message ?? "Invalid value.";
  }
}

function isAllowance(e: ErrorObject): boolean {
  return e.schemaPath.includes("/anyOf/") &&
    ((e.keyword === "type" && (e.params as { type?: unknown }).type === "null") || (e.keyword === "const" && (e.params as { allowedValue?: unknown }).allowedValue === ""));
}

export class WriteValidators {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly api: ApiDescriptor) {
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    (addFormats.default ?? addFormats)(this.ajv);
    for (const [version, doc] of Object.entries(api.openapi)) {
      this.ajv.addSchema({ ...(doc as object), $id: `${api.name}-${version}` });
    }
  }

  /** Field-keyed errors of one object, or null when it is valid. `mode` picks the schema. */
  check(m: ModelDescriptor, version: string, mode: "write" | "patch", body: Record<string, unknown>): FieldErrors | null {
    const key = `${m.key}|${version}|${mode}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const ref = `${this.api.name}-${version}#/components/schemas/${m.components[mode]}`;
      validate = this.ajv.getSchema(ref);
      if (!validate) throw new Error(`no schema ${ref}`);
      this.cache.set(key, validate);
    }
    if (validate(body)) return null;
    const byName = new Map(m.fields.map((f) => [f.name, f]));
    const errors: Record<string, string[]> = Object.create(null);
    for (const e of validate.errors ?? []) {
      const name = e.keyword === "required" ? String((e.params as { missingProperty: string }).missingProperty) : e.instancePath.split("/")[1];
      if (!name) continue;
      const f = byName.get(name);
      if (f && kindOf(f).checksOwnValue && e.keyword !== "required") continue;
      if (e.keyword === "anyOf" || e.keyword === "if") continue;
      // `{type: "null"}` and `{const: ""}` are the allowances of nullable and blank fields
      // (anyOf alternatives); failing them says nothing the main branch does not say better.
      if (isAllowance(e)) continue;
      const msg = message(e, body[name], f);
      const list = (errors[name] ??= []);
      if (!list.includes(msg)) list.push(msg);
    }
    return Object.keys(errors).length ? errors : null;
  }
}
