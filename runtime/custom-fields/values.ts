// Nautobot's CustomField.validate: whether a value suits a custom field's type and rules,
// with its messages. Empty values (null, "" or []) pass unless the field is required.
import { pyRepr } from "../text/python.js";
import type { CustomFieldDefinition } from "./definitions.js";

const isEmpty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** Python's `str()` of a JSON value, as f-strings print it. */
export function pyStr(v: unknown): string {
  return typeof v === "string" ? v : pyRepr(v);
}

/** Python's `int(value)`, or null where it raises (its ValueError, or a TypeError). */
function pyInt(v: unknown): bigint | null {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "number") return Number.isFinite(v) ? BigInt(Math.trunc(v)) : null;
  if (typeof v === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(v)) return BigInt(v.trim().replace(/_/g, ""));
  return null;
}

/** A Python regular expression as JavaScript runs it, or null when JavaScript cannot compile it. */
export function compileRegex(source: string): RegExp | null {
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

function isDate(v: unknown): boolean {
  // datetime.strptime's %Y-%m-%d: four-digit year, one- or two-digit month and day, a real day.
  const m = typeof v === "string" ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The reason `value` does not suit `cf`, or null when it does. */
export function valueProblem(cf: CustomFieldDefinition, value: unknown): string | null {
  if (isEmpty(value)) return cf.required ? "Required field cannot be empty." : null;
  const available = () => `Available choices are: ${cf.choices.join(", ")}`;
  switch (cf.type) {
    case "text": case "url": {
      if (typeof value !== "string") return "Value must be a string";
      if (cf.validation_regex && !compileRegex(cf.validation_regex)?.test(value)) return `Value must match regex '${cf.validation_regex}'`;
      return null;
    }
    case "integer": {
      const n = pyInt(value);
      if (n === null) return "Value must be an integer.";
      if (cf.validation_minimum !== null && n < BigInt(cf.validation_minimum)) return `Value must be at least ${cf.validation_minimum}`;
      if (cf.validation_maximum !== null && n > BigInt(cf.validation_maximum)) return `Value must not exceed ${cf.validation_maximum}`;
      return null;
    }
    case "boolean":
      return value === true || value === false || value === 1 || value === 0 ? null : "Value must be true or false.";
    case "date":
      return isDate(value) ? null : "Date values must be in the format YYYY-MM-DD.";
    case "select":
      return typeof value === "string" && cf.choices.includes(value) ? null : `Invalid choice (${pyStr(value)}). ${available()}`;
    case "multi-select": {
      const items: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? Array.from(value) : [value];
      return items.every((x) => typeof x === "string" && cf.choices.includes(x)) ? null : `Invalid choice(s) (${pyStr(value)}). ${available()}`;
    }
    default:
      return null;
  }
}

/**
 * Nautobot's CustomFieldModel.clean over an object's whole data: every known key's value, then
 * the missing ones (required: refused; otherwise filled with the default). Unknown keys stay.
 */
export function cleanData(defs: CustomFieldDefinition[], data: Record<string, unknown>): { data: Record<string, unknown> } | { error: string } {
  const byName = new Map(defs.map((cf) => [cf.name, cf]));
  for (const [name, value] of Object.entries(data)) {
    const cf = byName.get(name);
    const problem = cf && valueProblem(cf, value);
    if (problem) return { error: `Invalid value for custom field '${name}': ${problem}` };
  }
  const out = { ...data };
  for (const cf of defs) {
    if (cf.name in out) continue;
    if (cf.required) return { error: `Missing required custom field '${cf.name}'.` };
    out[cf.name] = cf.default;
  }
  return { data: out };
}

/** The values an object gets on create when the request leaves `custom_fields` out: every default (or null), by `key`. */
export function defaults(defs: CustomFieldDefinition[], key: "name" | "slug" = "name"): Record<string, unknown> {
  return Object.fromEntries(defs.map((cf) => [cf[key], cf.default ?? null]));
}
