// Write validation: compiles each model's writable schema from the API's own OpenAPI
// document with ajv (so the documented schema is the enforced one), once per version and
// mode, and turns ajv's errors into field-keyed problems. Related objects are left to
// the resolver, which knows whether an id or attribute set matches anything. Keeps the
// compiled schemas only: the document they come from (some 2 MB of JSON, several times that
// as objects) is read for the compilation and let go.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ApiDescriptor, FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import { kindOf } from "../kinds/index.js";
import type { FieldErrors } from "../errors.js";
import type { Problem } from "../problems.js";

const addFormats = addFormatsModule as unknown as { default?: (a: Ajv2020) => void } & ((a: Ajv2020) => void);

function problem(e: ErrorObject, value: unknown, f: FieldDescriptor | undefined): Problem {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": return { code: "required" };
    case "type": {
      if (value === null) return { code: "null" };
      const t = String(p.type);
      if (t.includes("integer")) return { code: "invalid_integer" };
      if (t.includes("number")) return { code: "invalid_number" };
      if (t.includes("boolean")) return { code: "invalid_boolean" };
      if (t.includes("array")) return { code: "not_a_list", given: value };
      if (t.includes("object")) return { code: "not_a_dict", given: value };
      return { code: "invalid_string" };
    }
    case "maxLength": return { code: "max_length", limit: Number(p.limit) };
    case "minLength": return value === "" ? { code: "blank" } : { code: "min_length", limit: Number(p.limit) };
    case "minimum": return { code: "min_value", limit: Number(p.limit) };
    case "maximum": return { code: "max_value", limit: Number(p.limit) };
    case "enum":
      if (value === null) return { code: "null" };
      // Nautobot's ChoiceField takes only the bare value, never the `{value, label}` it renders.
      if (typeof value === "object") return { code: "choice_not_scalar" };
      return { code: "invalid_choice", value, plain: f?.kind === "choice" && !!f.plain };
    case "pattern": {
      const scalar = f?.kind === "scalar" ? f : undefined;
      if (scalar?.type === "decimal") return { code: "invalid_number" };
      if (scalar?.format === "color") return { code: "invalid_color" };
      return scalar?.pattern?.message ? { code: "invalid_value", message: scalar.pattern.message } : { code: "invalid_value" };
    }
    case "format":
      switch (p.format) {
        case "uuid": return { code: "invalid_uuid" };
        case "email": return { code: "invalid_email" };
        case "uri": return { code: "invalid_url" };
        case "date": return { code: "invalid_date_format" };
        case "date-time": return { code: "invalid_datetime_format" };
        default: return { code: "invalid_value" };
      }
    default: return e.message ? { code: "schema_violation", message: e.message } : { code: "schema_violation" };
  }
}

function isAllowance(e: ErrorObject): boolean {
  return e.schemaPath.includes("/anyOf/") &&
    ((e.keyword === "type" && (e.params as { type?: unknown }).type === "null") || (e.keyword === "const" && (e.params as { allowedValue?: unknown }).allowedValue === ""));
}

type Json = Record<string, unknown>;

/**
 * The components of `doc` that `name` (a schema) reaches through `$ref`s, itself included, as
 * a document of their own: what compiling that one schema needs of the whole.
 */
export function schemaWithReferences(doc: Json, name: string): { components: Record<string, Json> } {
  const all = (doc.components ?? {}) as Record<string, Json>;
  const components: Record<string, Json> = {};
  const take = (kind: string, named: string) => {
    if ((components[kind] ??= {})[named] !== undefined) return;
    const value = all[kind]?.[named];
    if (value === undefined) return;
    components[kind][named] = value;
    walk(value);
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    const ref = (value as Json).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/")) {
      const [, , kind, named] = ref.split("/");
      take(kind, named);
    }
    Object.values(value).forEach(walk);
  };
  take("schemas", name);
  return { components };
}

export class WriteValidators {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly api: ApiDescriptor) {
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    (addFormats.default ?? addFormats)(this.ajv);
  }

  /** Field-keyed problems of one object, or null when it is valid. `mode` picks the schema. */
  check(m: ModelDescriptor, version: string, mode: "write" | "patch", body: Record<string, unknown>): FieldErrors | null {
    const key = `${m.key}|${version}|${mode}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const name = m.components[mode];
      const id = `${this.api.name}-${version}-${name}`;
      // Models whose write and patch forms are one component compile it once.
      if (!this.ajv.getSchema(id)) {
        const doc = this.api.openapi[version] as Json | undefined;
        if (!doc) throw new Error(`API ${this.api.name} has no OpenAPI document of version ${version}`);
        this.ajv.addSchema({ ...schemaWithReferences(doc, name), $id: id });
      }
      validate = this.ajv.getSchema(`${id}#/components/schemas/${name}`);
      if (!validate) throw new Error(`no schema ${name} in the OpenAPI document of ${this.api.name} ${version}`);
      this.cache.set(key, validate);
    }
    if (validate(body)) return null;
    const byName = new Map(m.fields.map((f) => [f.name, f]));
    const errors: Record<string, Problem[]> = Object.create(null);
    for (const e of validate.errors ?? []) {
      const name = e.keyword === "required" ? String((e.params as { missingProperty: string }).missingProperty) : e.instancePath.split("/")[1];
      if (!name) continue;
      const f = byName.get(name);
      if (f && kindOf(f).checksOwnValue && e.keyword !== "required") continue;
      if (e.keyword === "anyOf" || e.keyword === "if") continue;
      // `{type: "null"}` and `{const: ""}` are the allowances of nullable and blank fields
      // (anyOf alternatives); failing them says nothing the main branch does not say better.
      if (isAllowance(e)) continue;
      const found = problem(e, body[name], f);
      const list = (errors[name] ??= []);
      if (!list.some((x) => JSON.stringify(x) === JSON.stringify(found))) list.push(found);
    }
    return Object.keys(errors).length ? errors : null;
  }
}
