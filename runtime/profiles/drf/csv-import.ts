// A CSV body posted to a list (`Content-Type: text/csv`), read as Nautobot 2.x's
// NautobotCSVParser reads one: the header names fields (`<field>__<key>` a lookup of the related
// object, `cf_<key>` a custom field), each row becomes the JSON body of one object, and the
// rows go to the write pipeline as one bulk create. Refusals come back per row and field.
import { parse } from "csv-parse/sync";
import type { FieldDescriptor, ModelDescriptor } from "../../descriptor.js";
import { Answer, HttpError, ValidationError } from "../../errors.js";
import type { CustomFieldColumn } from "../../features/index.js";
import type { ModelIndex } from "../../models.js";
import { isUuid } from "../../query/filters.js";
import { CSV_NO_OBJECT, CSV_NULL } from "./csv-columns.js";
import type { ErrorTree, Leaf, Problem } from "../../problems.js";
import { wordErrors } from "./wording.js";

type Body = Record<string, unknown>;

/** DRF BooleanField's words for true and false. */
const TRUE = new Set(["t", "T", "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "1"]);
const FALSE = new Set(["f", "F", "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "0"]);
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The records of a CSV text: the header, then each row; unreadable text is DRF's 400 parse error. */
export function csvRecords(raw: Buffer): { header: string[]; rows: string[][] } {
  let records: string[][];
  try {
    records = parse(raw, { bom: true, skip_empty_lines: true });
  } catch (err) {
    throw new HttpError(400, `CSV parse error - ${(err as Error).message}`, "parse_error");
  }
  const [header = [], ...rows] = records;
  const blank = header.findIndex((h) => h.trim() === "");
  // Nautobot's words, its rows counted from the first after the header.
  if (blank >= 0) throw new HttpError(400, `Row 1: Column ${blank + 1}: missing/empty header for this column`, "parse_error");
  return { header: header.map((h) => h.trim()), rows };
}

/** The JSON bodies the rows stand for, to be created as one bulk. */
export function csvBodies(index: ModelIndex, m: ModelDescriptor, header: string[], rows: string[][], cfs: CustomFieldColumn[]): Body[] {
  const cfTypes = new Map(cfs.map((c) => [c.key, c.type]));
  const cfField = customFieldsOf(m);
  return rows.map((row) => {
    const body: Body = {};
    const lookups = new Map<string, Body>();
    header.forEach((name, i) => {
      const value = row[i] ?? "";
      if (name.startsWith("cf_") && cfField) {
        const key = name.slice(3);
        ((body[cfField] ??= {}) as Body)[key] = customValue(value, cfTypes.get(key));
        return;
      }
      const [field, ...path] = name.split("__");
      if (path.length) {
        // A related object by its attributes: all `NoObject` means none, and the field is left out.
        const found = lookups.get(field) ?? {};
        lookups.set(field, found);
        if (value !== CSV_NO_OBJECT) setPath(found, path, value === CSV_NULL ? null : value);
        return;
      }
      const f = m.fields.find((x) => x.name === field);
      // Read-only columns (an export's `id`, `display`, counts) are what a file read back carries.
      if (f?.readOnly) return;
      const given = f ? fieldValue(index, f, value) : value;
      if (given !== undefined) body[field] = given;
    });
    for (const [field, found] of lookups) if (Object.keys(found).length) body[field] = found;
    return body;
  });
}

/** The name of the model's custom fields, if it has them. */
function customFieldsOf(m: ModelDescriptor): string | undefined {
  return m.fields.find((f) => f.kind === "customFields")?.name;
}

function setPath(into: Body, path: string[], value: unknown): void {
  let at = into;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Body;
  at[path.at(-1)!] = value;
}

/**
 * A cell as the JSON value the field takes, where the text says which; else the text, for the
 * field to judge. An empty cell is null where the field may be, and for a related object that
 * may not, no value (the field's default, or its refusal as required).
 */
function fieldValue(index: ModelIndex, f: FieldDescriptor, value: string): unknown {
  if (value === CSV_NULL || value === CSV_NO_OBJECT) return null;
  const items = () => (value === "" ? [] : value.split(",").map((v) => v.trim()));
  switch (f.kind) {
    case "fk":
    case "treeParent":
      if (value === "") return f.nullable ? null : undefined;
      return reference(index, f.target, value);
    case "m2m":
      return f.bySlug ? items() : items().map((v) => reference(index, f.target, v));
    case "tags":
      return items().map((v) => reference(index, f.target, v));
    case "contentTypes":
      return items();
    case "list":
      return items().map((v) => (INTEGER.test(v) ? Number(v) : v));
    case "choice":
      if (value === "" && f.nullable) return null;
      return f.choices.some(([c]) => typeof c === "number") && INTEGER.test(value) ? Number(value) : value;
    case "scalar":
      if (value === "" && f.nullable) return null;
      return scalarValue(f.type, value);
    case "customFields":
      return value === "" ? {} : json(value);
    default:
      return value === "" && f.nullable ? null : value;
  }
}

function scalarValue(type: string, value: string): unknown {
  switch (type) {
    case "integer": return INTEGER.test(value) ? Number(value) : value;
    case "float": return NUMBER.test(value) ? Number(value) : value;
    case "boolean": return TRUE.has(value) ? true : FALSE.has(value) ? false : value;
    case "json": return json(value);
    default: return value;
  }
}

/** A related object named by its id, or else by its natural key. */
function reference(index: ModelIndex, target: string, value: string): unknown {
  const t = index.model(target);
  const id = index.integerKeys(t) ? INTEGER.test(value) : isUuid(value);
  return id || !t.naturalKey ? value : { [t.naturalKey]: value };
}

function customValue(value: string, type: string | undefined): unknown {
  if (value === "" || value === CSV_NULL) return null;
  switch (type) {
    case "integer": return INTEGER.test(value) ? Number(value) : value;
    case "boolean": return TRUE.has(value) ? true : FALSE.has(value) ? false : value;
    case "multi-select": return value.split(",").map((v) => v.trim());
    case "json": return json(value);
    default: return value;
  }
}

/** JSON text as its value; other text as itself, for the field to refuse in its own words. */
function json(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * A bulk refusal as a 400 listing each problem by row (counted from 1, after the header) and
 * field: `{"row": 3, "field": "<field>", "errors": [...]}`; a custom field's (keyed under the
 * model's custom fields, or the model's own check of one) as its `cf_<key>`.
 */
export function csvRefusal(m: ModelDescriptor, err: ValidationError): Answer {
  if (!Array.isArray(err.errors)) return new Answer(400, wordErrors(err.errors));
  const cfField = customFieldsOf(m);
  const problems = err.errors.flatMap((element, i) => Object.entries(element).flatMap(([field, tree]) => {
    const at = (name: string, errors: ErrorTree) => ({ row: i + 1, field: name, errors: wordErrors(errors) });
    if (field === cfField && !Array.isArray(tree)) return Object.entries(tree).map(([key, e]) => at(`cf_${key}`, e));
    if (!Array.isArray(tree)) return [at(field, tree)];
    const own = tree.filter((leaf) => customFieldOf(leaf) === undefined);
    const cfs = tree.filter((leaf) => customFieldOf(leaf) !== undefined);
    return [...(own.length ? [at(field, own)] : []), ...cfs.map((leaf) => at(`cf_${customFieldOf(leaf)}`, [leaf]))];
  }));
  return new Answer(400, problems);
}

/** The custom field a problem is about, if it is one of a custom field's value. */
function customFieldOf(leaf: Leaf | ErrorTree): string | undefined {
  if (!leaf || typeof leaf !== "object" || Array.isArray(leaf) || !("code" in leaf)) return undefined;
  const p = leaf as Problem;
  return p.code === "custom_field_invalid" || p.code === "custom_field_missing" ? p.name : undefined;
}
