// A scalar: one column of a SQL type, read and written as a JSON value. Each scalar type's
// facts (column type, default, JSON schema, filters) are here, side by side.
import type { ScalarField } from "../../runtime/descriptor.js";
import { constraintNames } from "../ir/names.js";
import { sqlLiteral } from "./sql-literal.js";
import type { ScalarField as ScalarSpec } from "../dsl/index.js";
import { nullable, withLookups, type GeneratorFieldKind, type Schema, type SpecRules } from "./types.js";

const STRING_LOOKUPS = ["n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "re", "nre", "ire", "nire"];
const NUMBER_LOOKUPS = ["n", "lt", "lte", "gt", "gte"];
const INT4_MAX = 2147483647;

function columnType(f: ScalarField): string {
  switch (f.type) {
    case "uuid": return "uuid";
    case "string": return f.maxLength ? `varchar(${f.maxLength})` : "text";
    case "text": case "password": return "text";
    case "integer": return (f.max ?? 0) > INT4_MAX || (f.min ?? 0) < -INT4_MAX - 1 ? "bigint" : "integer";
    case "float": return "double precision";
    case "decimal": return `numeric(${f.maxDigits}, ${f.decimalPlaces})`;
    case "boolean": return "boolean";
    case "date": return "date";
    case "datetime": return "timestamptz";
    case "json": return "jsonb";
    case "cidr": return "cidr";
    case "ip": return "inet";
  }
}

function columnDefault(f: ScalarField): string | undefined {
  if (f.default === "now") return f.type === "date" ? "CURRENT_DATE" : "now()";
  if (f.default !== undefined && typeof f.default !== "object") {
    return f.type === "json" ? `${sqlLiteral(JSON.stringify(f.default))}::jsonb` : sqlLiteral(f.default);
  }
  if (f.default && typeof f.default === "object" && !("randomHex" in f.default)) {
    return `${sqlLiteral(JSON.stringify(f.default))}::jsonb`;
  }
  if (!f.nullable && (f.type === "string" || f.type === "text")) return "''";
  return undefined;
}

/** The JSON schema of a scalar value, without nullability. */
export function scalarSchema(f: ScalarField): Schema {
  const s: Schema = {};
  switch (f.type) {
    case "uuid": Object.assign(s, { type: "string", format: "uuid" }); break;
    case "string": case "text": case "password": case "cidr": case "ip":
      s.type = "string";
      if (f.maxLength) s.maxLength = f.maxLength;
      if (f.minLength) s.minLength = f.minLength;
      // A blank-allowed email field holds "" when unset, and "" is no email address.
      if (f.format === "email") Object.assign(s, f.blank ? { anyOf: [{ format: "email" }, { const: "" }] } : { format: "email" });
      // A blank-allowed colour holds "" when unset (a cable's), as ColorField(blank=True).
      if (f.format === "color") s.pattern = f.blank ? "^([0-9a-f]{6})?$" : "^[0-9a-f]{6}$";
      if (f.pattern) s.pattern = f.pattern.regex;
      if ((f.type === "string" || f.type === "text") && f.blank === false) s.minLength = Math.max(1, f.minLength ?? 1);
      break;
    case "integer": s.type = "integer"; break;
    case "float": s.type = "number"; break;
    case "decimal": Object.assign(s, { type: "string", pattern: decimalPattern(f) }); break;
    case "boolean": s.type = "boolean"; break;
    case "date": Object.assign(s, { type: "string", format: "date" }); break;
    case "datetime": Object.assign(s, { type: "string", format: "date-time" }); break;
    case "json": Object.assign(s, f.schema ?? {}); break;
  }
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  return s;
}

/** What DRF's schema says of a decimal: a string of at most the whole and fraction digits. */
function decimalPattern(f: ScalarField): string {
  const whole = (f.maxDigits ?? 0) - (f.decimalPlaces ?? 0);
  return `^-?\\d{0,${whole}}(?:\\.\\d{0,${f.decimalPlaces}})?$`;
}

const SCALAR_TYPES = new Set([
  "uuid", "string", "text", "integer", "float", "decimal", "boolean", "date", "datetime", "json", "cidr", "ip", "password",
]);
const STRINGISH = new Set(["string", "text"]);

export const scalarSpec: SpecRules<ScalarSpec, ScalarField> = {
  check(f, { fields, model, resolve, err }) {
    for (const part of [f.slugFrom ?? []].flat()) {
      const [name, far, ...rest] = part.split(".");
      const link = fields[name] ?? (name === "parent" && model.features?.includes("tree") ? { kind: "fk" as const, target: `${model.app}.${model.name}` } : undefined);
      const target = far !== undefined && link?.kind === "fk" ? resolve(link.target) : undefined;
      if (!link || rest.length || (far !== undefined && !target?.spec.fields[far])) err(`slugFrom names unknown field "${part}" (a field, or "fk.field" of the related model)`);
    }
    // Strings fall back to "", everything else would leave a NOT NULL column empty on create.
    if (SCALAR_TYPES.has(f.type) && !STRINGISH.has(f.type) && !f.required && !f.nullable && f.default === undefined && !f.randomHex && !f.autoNow) {
      err(`an optional ${f.type} field needs a default or nullable: true (or required: true)`);
    }
    const digits = (n: number | undefined) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 1000;
    if (f.type === "decimal" && (!digits(f.maxDigits) || !digits(f.decimalPlaces) || f.maxDigits! < 1 || f.decimalPlaces! > f.maxDigits!)) {
      err("a decimal field needs maxDigits (1–1000) and decimalPlaces (0–maxDigits)");
    }
    if (f.type !== "decimal" && (f.maxDigits !== undefined || f.decimalPlaces !== undefined)) err("maxDigits and decimalPlaces are for decimal fields");
    if (f.schema !== undefined && (f.type !== "json" || typeof f.schema !== "object" || f.schema === null || Array.isArray(f.schema))) err("schema is a JSON schema object, for json fields");
    if (f.pattern) {
      try { new RegExp(f.pattern.regex); } catch { err(`pattern "${f.pattern.regex}" is not a valid regular expression`); }
    }
    if (f.searchIndexed && f.type !== "string" && f.type !== "text") err("searchIndexed is for string and text fields");
  },
  build(f, common, { name }) {
    const out: ScalarField = { ...common, kind: "scalar", type: f.type, column: f.column ?? name };
    if (f.slugFrom !== undefined) out.slugFrom = [f.slugFrom].flat();
    if (f.slugUnderscores) out.slugUnderscores = true;
    if (f.searchIndexed) out.searchIndexed = true;
    for (const k of ["maxLength", "minLength", "min", "max", "maxDigits", "decimalPlaces", "schema", "pattern", "format"] as const) {
      if (f[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = f[k];
    }
    if (f.randomHex) out.default = { randomHex: f.randomHex };
    if (f.autoNow) Object.assign(out, { autoNow: f.autoNow, readOnly: true, default: "now" });
    if (f.type === "string" || f.type === "text") out.blank = f.blank ?? !f.required;
    return out;
  },
};

/** A decimal is written as a number or a numeric string, as DRF's DecimalField takes it; the server checks its digits. */
function decimalWriteSchema(f: ScalarField): Schema {
  return {
    type: ["string", "number"],
    // Applies to strings only: a number in decimal or exponent notation, spaces around allowed.
    pattern: "^\\s*[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?\\s*$",
    description: `A decimal number (or its string) of at most ${f.maxDigits} digits, ${f.decimalPlaces} after the point.`,
    ...(f.min !== undefined ? { minimum: f.min } : {}),
    ...(f.max !== undefined ? { maximum: f.max } : {}),
  };
}

export const scalar: GeneratorFieldKind<ScalarField> = {
  schema(f, { model, table }) {
    table.columns[f.column] = { type: columnType(f), nullable: f.nullable };
    const def = columnDefault(f);
    if (def) table.columns[f.column].default = def;
    if (f.unique) table.uniques[constraintNames.unique(model.table, f.column)] = [f.column];
    if (f.type === "cidr" || f.type === "ip") {
      table.indexes[constraintNames.gist(model.table, f.column)] = { using: "gist", columns: [`${f.column} inet_ops`] };
    }
    // armature_trigrams is the runtime's (runtime/db/runtime-migrations.ts), migrated before any API.
    if (f.searchIndexed) table.indexes[constraintNames.trigrams(model.table, f.column)] = { using: "gin", columns: [`(armature_trigrams("${f.column}"))`] };
  },
  readSchema: (f) => nullable(scalarSchema(f), f.nullable),
  writeSchema: (f) => nullable(f.type === "json" ? { ...f.schema } : f.type === "decimal" ? decimalWriteSchema(f) : scalarSchema(f), f.nullable),
  filters(f, add) {
    if (f.autoNow) {
      // Nautobot declares exact/gte/lte only, typed by the field (a token's `created` is a date-time).
      withLookups(add, f.name, f.type === "date" ? "date" : "datetime", ["gte", "lte"]);
      return;
    }
    switch (f.type) {
      case "string": case "text": return withLookups(add, f.name, "string", STRING_LOOKUPS);
      case "uuid": return withLookups(add, f.name, "uuid", ["n"]);
      case "integer": case "float": case "decimal": return withLookups(add, f.name, "number", NUMBER_LOOKUPS);
      case "date": return withLookups(add, f.name, "date", NUMBER_LOOKUPS);
      case "datetime": return withLookups(add, f.name, "datetime", NUMBER_LOOKUPS);
      case "boolean": return add(f.name, { kind: "boolean", field: f.name, lookup: "exact" });
      case "cidr": return add(f.name, { kind: "network", field: f.name, lookup: "exact", network: "net_equals" });
      case "ip": return add(f.name, { kind: "network", field: f.name, lookup: "exact", network: "address" });
    }
  },
};
