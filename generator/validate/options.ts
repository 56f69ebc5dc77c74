// Checks the value of every option a spec sets: its type and, where the DSL names them, its
// allowed values (`onDelete: "protekt"`, an integer field's `default: "24"`). Each object of
// the DSL has a JSON schema here, one entry per option of its TypeScript type (a missing or
// extra entry is a compile error, so a new option cannot go unchecked), run through ajv.
// Unknown keys are keys.ts's business; what an option means next to the others (a decimal's
// digits, a choice default among the choices) is the kinds' and the validate pass's.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import {
  CONTENT_TYPE_SCOPES, FEATURES, UNIQUE_CHECKS,
  type ActionSpec, type ApiSpec, type CommonFieldOptions, type FieldSpec, type FilterSpec, type ModelSpec, type ScalarField, type ScalarType,
} from "../dsl/index.js";

type Schema = Record<string, unknown>;
/** A schema for each option of T but its `kind` tag. */
type OptionSchemas<T> = { [K in Exclude<keyof T, "kind">]-?: Schema };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, verbose: true }));

const str: Schema = { type: "string" };
const text: Schema = { type: "string", minLength: 1 };
const bool: Schema = { type: "boolean" };
const num: Schema = { type: "number" };
const whole = (minimum: number): Schema => ({ type: "integer", minimum });
const oneOf = (values: ReadonlyArray<string | number>): Schema => ({ enum: [...values] });
const listOf = (items: Schema): Schema => ({ type: "array", items });
const recordOf = (value: Schema): Schema => ({ type: "object", additionalProperties: value });
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: "object", properties, required, additionalProperties: false });
const anyObject: Schema = { type: "object" };
const anything: Schema = {};
const identifier: Schema = { type: "string", pattern: "^[a-z_][a-z0-9_]*$" };
/** An identifier, or `+` for none (Django's related_name). */
const identifierOrPlus: Schema = { type: "string", pattern: "^([a-z_][a-z0-9_]*|\\+)$" };
/** `"app.Model"`. */
const modelRef: Schema = { type: "string", pattern: "^[a-z][a-z0-9_]*\\.[A-Z][A-Za-z0-9]*$" };
/** `"app.Model.field"`. */
const fieldRef: Schema = { type: "string", pattern: "^[a-z][a-z0-9_]*\\.[A-Z][A-Za-z0-9]*\\.[a-z_][a-z0-9_]*$" };
const names = listOf(str);

const choiceSet = object({
  kind: { const: "choices" },
  name: str,
  values: listOf({ type: "array", items: [{ type: ["string", "number"] }, str], minItems: 2, maxItems: 2 }),
}, ["kind", "name", "values"]);

const COMMON: OptionSchemas<CommonFieldOptions> = {
  description: str, label: str, required: bool, nullable: bool, unique: bool, uniqueCheckedBy: oneOf(UNIQUE_CHECKS), verboseName: str,
  uniqueMessage: str, default: anything, readOnly: bool, writeOnly: bool, since: str, until: str, requiredSince: str, optIn: bool,
  column: identifier, renamedFrom: identifier, backfill: anything, nestedOnly: bool,
};

const SCALAR: OptionSchemas<ScalarField> = {
  ...COMMON,
  type: oneOf(["uuid", "string", "text", "integer", "float", "decimal", "boolean", "date", "datetime", "json", "cidr", "ip", "password"] satisfies ScalarType[]),
  maxLength: whole(1), minLength: whole(0), blank: bool, pattern: object({ regex: str, message: str }, ["regex", "message"]),
  slugFrom: { anyOf: [text, { ...listOf(text), minItems: 1 }] }, slugUnderscores: bool, randomHex: whole(1),
  format: oneOf(["email", "url", "color"]), autoNow: oneOf(["create", "update"]), min: num, max: num, maxDigits: whole(1), decimalPlaces: whole(0),
  schema: anyObject, searchIndexed: bool,
};

const FIELDS: { [K in FieldSpec["kind"]]: OptionSchemas<Extract<FieldSpec, { kind: K }>> } = {
  scalar: SCALAR,
  choice: { ...COMMON, choices: choiceSet, blank: bool, plain: bool, plainWhenNested: bool },
  list: { ...COMMON, of: object({ ...SCALAR, kind: { const: "scalar" } }, ["kind", "type"]) },
  ipFamily: { ...COMMON, from: identifier },
  count: { ...COMMON, of: { anyOf: [fieldRef, { const: "tags" }] }, descendants: bool, stored: bool },
  reverse: { ...COMMON, of: fieldRef, singleUntil: str, through: object({ show: identifier, as: identifier }, ["show", "as"]) },
  firstSet: { ...COMMON, fields: { ...listOf(identifier), minItems: 1 } },
  fk: { ...COMMON, target: modelRef, onDelete: oneOf(["protect", "cascade", "setNull"]), fromRequestUser: bool, idWhenNested: bool, asId: bool, shape: names, relatedName: identifierOrPlus, oneToOne: bool },
  m2m: { ...COMMON, target: modelRef, bySlug: bool, keyWhenNested: identifier, relatedName: identifier },
  computed: { ...COMMON, schema: anyObject, excludable: bool },
  contentType: { ...COMMON, models: listOf(modelRef), feature: oneOf(CONTENT_TYPE_SCOPES) },
  contentTypes: { ...COMMON, feature: oneOf(CONTENT_TYPE_SCOPES), models: listOf(modelRef) },
  generic: { ...COMMON, type: identifier, id: identifier, onDelete: oneOf(["cascade"]), relatedName: identifierOrPlus },
  status: { ...COMMON, defaults: choiceSet },
  imageFile: { ...COMMON, uploadTo: str, height: identifier, width: identifier, maxLength: { type: "integer", minimum: 1 } },
};

const sqlBlocks = recordOf(object({ up: str, down: str }, ["up"]));

const FILTERS: OptionSchemas<FilterSpec> = {
  q: names, qAddress: identifier,
  extra: recordOf(object({ field: identifier, lookup: str }, ["field", "lookup"])),
  exclude: names,
  via: recordOf({ anyOf: [str, listOf(str)] }),
  related: recordOf(object({ of: str, key: identifier }, ["of"])),
  aliases: recordOf(identifier),
  present: recordOf({ anyOf: [identifier, listOf(identifier)] }),
  membership: recordOf(str),
  methods: recordOf(object({ takes: str, choices: names }, ["takes"])),
};

const ACTION: OptionSchemas<ActionSpec> = {
  description: str, response: anyObject, paginated: bool, onApp: bool,
  creates: object({ model: str, request: anyObject }, ["model", "request"]),
  parameters: recordOf(object({ description: str, required: bool }, ["description"])),
  method: oneOf(["GET", "POST"]), request: anyObject, permission: str, status: { type: "integer", minimum: 200, maximum: 299 }, path: str,
  servesList: object({ since: str, until: str }), multipart: anyObject,
};

const MODEL: OptionSchemas<ModelSpec> = {
  name: str, app: str, route: str, verboseName: str, description: str, display: str, ordering: names,
  features: listOf(oneOf(FEATURES)),
  fields: recordOf({ type: "object", required: ["kind"] }),
  nested: { anyOf: [names, { const: "all" }] }, brief: names, naturalKey: identifier, changeLogRelated: identifier,
  filters: { type: "object", properties: FILTERS },
  uniqueTogether: listOf({ anyOf: [names, object({ fields: names, checkedBy: oneOf(UNIQUE_CHECKS) }, ["fields", "checkedBy"])] }),
  indexes: listOf(object({ fields: { ...names, minItems: 1 }, using: oneOf(["btree", "gin", "gist"]) }, ["fields"])),
  sql: sqlBlocks,
  operations: listOf(oneOf(["list", "retrieve", "create", "update", "delete"])),
  actions: recordOf(object(ACTION, ["description", "response"])),
  tree: object({ parentAsId: bool, depthName: identifier, depthOnlyListed: bool, relatedName: identifierOrPlus }),
  graphqlFields: recordOf(object({ type: oneOf(["String", "Int", "Boolean"]), sql: str, nullable: bool, description: str }, ["type", "sql"])),
  idType: oneOf(["uuid", "serial"]),
  rows: object({ key: identifier, values: listOf(recordOf({ type: ["string", "number", "boolean"] })) }, ["key", "values"]),
  view: str, bare: bool,
  listings: recordOf(object({ present: identifier, filters: names }, ["present", "filters"])),
  wordpress: anyObject, hooks: str,
};

const API: OptionSchemas<ApiSpec> = {
  name: str, title: str, description: str, profile: oneOf(["drf", "wordpress"]), basePath: str, apps: names, rootLinks: names,
  versions: object({ default: str, supported: names }, ["default", "supported"]),
  settings: anyObject,
  auth: object({ users: modelRef, tokens: modelRef, settings: identifier }, ["users"]),
  tagModel: modelRef,
  customFields: object({ definitions: modelRef, choices: modelRef, slugKeysSince: str }, ["definitions", "choices"]),
  computedFieldModel: modelRef, noteModel: modelRef,
  relationships: object({ definitions: modelRef, associations: modelRef }, ["definitions", "associations"]),
  contentTypes: modelRef, statusModel: modelRef, appNames: recordOf(str), idType: oneOf(["uuid", "serial"]), changeLog: modelRef, webhooks: modelRef, exportTemplates: modelRef,
  permissions: object({ objectPermissions: modelRef, groups: modelRef }, ["objectPermissions", "groups"]),
  jobs: object({ jobs: modelRef, results: modelRef, logs: modelRef, schedules: modelRef, hooks: modelRef }, ["jobs", "results", "logs"]),
  appPasswords: modelRef, sql: sqlBlocks, discard: names,
};

/** What a default (or a backfill) of each scalar type must be, within the field's own bounds. */
function scalarValue(f: ScalarField): Schema {
  const bounded = (s: Schema): Schema => ({
    ...s,
    ...(typeof f.min === "number" ? { minimum: f.min } : {}),
    ...(typeof f.max === "number" ? { maximum: f.max } : {}),
  });
  const string = (s: Schema = {}): Schema => ({
    type: "string",
    ...(Number.isInteger(f.maxLength) ? { maxLength: f.maxLength } : {}),
    ...(Number.isInteger(f.minLength) ? { minLength: f.minLength } : {}),
    ...s,
  });
  switch (f.type) {
    case "integer": return bounded({ type: "integer" });
    case "float": return bounded({ type: "number" });
    case "decimal": return { anyOf: [bounded({ type: "number" }), { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?$" }] };
    case "boolean": return { type: "boolean" };
    case "uuid": return { type: "string", format: "uuid" };
    case "date": return { anyOf: [{ const: "today" }, { type: "string", format: "date" }] };
    case "datetime": return { anyOf: [{ const: "now" }, { type: "string", format: "date-time" }] };
    case "json": return {};
    default: return string();
  }
}

const compiled = new Map<unknown, ValidateFunction>();
function validatorOf(properties: Record<string, Schema>): ValidateFunction {
  let v = compiled.get(properties);
  if (!v) {
    v = ajv.compile({ type: "object", properties });
    compiled.set(properties, v);
  }
  return v;
}

/** Words for what a schema accepts: `one of "protect", "cascade"`, `a whole number ≥ 1`. */
function describe(s: Schema): string {
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if ("const" in s) return JSON.stringify(s.const);
  if (s.type === "null") return "null";
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(describe).join(" or ");
  const type = [s.type].flat()[0];
  const bounds = [s.minimum !== undefined && `≥ ${s.minimum}`, s.maximum !== undefined && `≤ ${s.maximum}`].filter(Boolean).join(" and ");
  switch (type) {
    case "string": {
      if (s.format === "uuid") return "a UUID string";
      if (s.format === "date") return "a date (YYYY-MM-DD)";
      if (s.format === "date-time") return "an ISO 8601 date-time";
      if (s.pattern === modelRef.pattern) return `a model reference "app.Model"`;
      if (s.pattern === fieldRef.pattern) return `a field reference "app.Model.field"`;
      if (s.pattern === identifier.pattern) return "a snake_case name";
      if (s.pattern) return `a string matching ${s.pattern}`;
      if (s.maxLength !== undefined) return `a string of at most ${s.maxLength} characters`;
      return s.minLength ? "a non-empty string" : "a string";
    }
    case "boolean": return "true or false";
    case "integer": return `a whole number${bounds ? ` ${bounds}` : ""}`;
    case "number": return `a number${bounds ? ` ${bounds}` : ""}`;
    case "array": {
      const items = s.items && !Array.isArray(s.items) ? s.items as Schema : undefined;
      if (Array.isArray(items?.enum)) return `a list of values among ${items.enum.map((v) => JSON.stringify(v)).join(", ")}`;
      return items ? `a list of ${plural(describe(items))}` : "a list";
    }
    case "object": {
      const props = Object.keys((s.properties as Record<string, unknown>) ?? {});
      if (s.additionalProperties && typeof s.additionalProperties === "object") return `an object of ${plural(describe(s.additionalProperties as Schema))}`;
      return props.length && s.additionalProperties === false ? `an object with ${props.join(", ")}` : "an object";
    }
    default: return "a JSON value";
  }
}

function plural(words: string): string {
  return words.replace(/^an? /, "").replace(/^(non-empty string|string|number|whole number|object|list|UUID string|snake_case name|model reference|field reference)\b/, "$1s");
}

/** `/pattern/regex` → `pattern.regex`, `/ordering/0` → `ordering[0]`. */
function dotted(path: string): string {
  return path.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");
}

/** One message per option in error: a union's failure is reported once, for the outermost union. */
function messages(errors: ErrorObject[]): string[] {
  const unions = new Map<string, ErrorObject>();
  for (const e of errors) {
    const seen = unions.get(e.instancePath);
    if (e.keyword === "anyOf" && (!seen || e.schemaPath.length < seen.schemaPath.length)) unions.set(e.instancePath, e);
  }
  const inUnion = (path: string) => [...unions.keys()].some((u) => path === u || path.startsWith(`${u}/`));
  const out = new Set<string>();
  for (const e of errors) {
    if (inUnion(e.instancePath) && unions.get(e.instancePath) !== e) continue;
    const at = dotted(e.instancePath);
    if (e.keyword === "required") out.add(`${at ? `${at} ` : ""}needs ${(e.params as { missingProperty: string }).missingProperty}`);
    else if (e.keyword === "additionalProperties") out.add(`${at} has no option "${(e.params as { additionalProperty: string }).additionalProperty}"`);
    else if (e.keyword === "minItems" || e.keyword === "maxItems") out.add(`${at} must be ${describe(e.parentSchema as Schema)} (${e.message})`);
    else out.add(`${at} must be ${describe(e.parentSchema as Schema)}, not ${JSON.stringify(e.data)}`);
  }
  return [...out];
}

/** Reports what `value` gets wrong; gives the names of its options in error. */
function check(properties: Record<string, Schema>, value: unknown, err: (message: string) => void): Set<string> {
  const v = validatorOf(properties);
  if (v(value)) return new Set();
  for (const m of messages(v.errors ?? [])) err(m);
  return new Set((v.errors ?? []).map((e) => e.instancePath.split("/")[1]).filter(Boolean));
}

/** `spec` without the options named, which the checks that read options as typed must not see. */
function without<T extends object>(spec: T, names: Set<string>): T {
  return names.size ? Object.fromEntries(Object.entries(spec).filter(([k]) => !names.has(k))) as T : spec;
}

/** Checks the api's options; gives the api without those of the wrong type. */
export function checkApiOptions(api: ApiSpec, err: (message: string) => void): ApiSpec {
  return without(api, check(API as Record<string, Schema>, api, err));
}

/** Checks the model's own options and its filters; gives the model without those of the wrong type (no fields, when they are). */
export function checkModelOptions(m: ModelSpec, err: (message: string) => void): ModelSpec {
  const wrong = check(MODEL as Record<string, Schema>, m, err);
  return wrong.has("fields") ? { ...without(m, wrong), fields: {} } : without(m, wrong);
}

/** Checks one field's options, its default and backfill against its type; gives whether all were well typed. */
export function checkFieldOptions(f: FieldSpec, err: (message: string) => void): boolean {
  const known = FIELDS[f.kind] as Record<string, Schema> | undefined;
  if (!known) return true;
  if (f.kind !== "scalar" || typeof f.type !== "string") return check(known, f, err).size === 0;
  // A scalar's value options depend on its type and bounds: one schema for each combination.
  const key = JSON.stringify([f.type, f.min, f.max, f.maxLength, f.minLength, f.nullable === true]);
  let properties = scalarSchemas.get(key);
  if (!properties) {
    const value = scalarValue(f);
    properties = { ...known, default: f.nullable === true ? { anyOf: [{ type: "null" }, value] } : value, backfill: value };
    scalarSchemas.set(key, properties);
  }
  return check(properties, f, err).size === 0;
}

const scalarSchemas = new Map<string, Record<string, Schema>>();
