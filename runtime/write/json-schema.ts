// JSON Schema (draft 7, as Nautobot's jsonschema Draft7Validator) for data that carries its own
// schema (config context schemas): whether a schema is one, and whether data follows it, with
// the first problem in words. Compiled schemas are cached by their text (a bounded cache).
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = addFormats(new Ajv({ allErrors: false, strict: false, validateSchema: true }));
const compiled = new Map<string, ValidateFunction>();

function describe(e: ErrorObject): string {
  return `${e.instancePath || "the value"} ${e.message ?? "is invalid"}`;
}

/** Null when `schema` is a valid draft-7 JSON Schema, else what is wrong with it. */
export function schemaProblem(schema: unknown): string | null {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return `${JSON.stringify(schema)} is not of type 'object', 'boolean'`;
  if (ajv.validateSchema(schema)) return null;
  return (ajv.errors ?? []).map(describe)[0] ?? "not a valid JSON Schema";
}

/** Null when `data` follows `schema`, else the first problem. */
export function dataProblem(schema: object, data: unknown): string | null {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    if (compiled.size >= 200) compiled.clear();
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate(data) ? null : describe(validate.errors![0]);
}
