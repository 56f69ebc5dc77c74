// Nautobot's CustomField.validate: whether a value suits a custom field's type and rules,
// and the reason when it does not. Empty values (null, "" or []) pass unless the field is required.
import type { CustomFieldReason, Problem } from "../../problems.js";
import type { CustomFieldDefinition } from "./definitions.js";

const isEmpty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

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
export function valueProblem(cf: CustomFieldDefinition, value: unknown): CustomFieldReason | null {
  if (isEmpty(value)) return cf.required ? { code: "empty" } : null;
  switch (cf.type) {
    case "text": case "url": {
      if (typeof value !== "string") return { code: "not_a_string" };
      if (cf.validation_regex && !compileRegex(cf.validation_regex)?.test(value)) return { code: "regex", regex: cf.validation_regex };
      return null;
    }
    case "integer": {
      const n = pyInt(value);
      if (n === null) return { code: "not_an_integer" };
      if (cf.validation_minimum !== null && n < BigInt(cf.validation_minimum)) return { code: "below_minimum", limit: cf.validation_minimum };
      if (cf.validation_maximum !== null && n > BigInt(cf.validation_maximum)) return { code: "above_maximum", limit: cf.validation_maximum };
      return null;
    }
    case "boolean":
      return value === true || value === false || value === 1 || value === 0 ? null : { code: "not_a_boolean" };
    case "date":
      return isDate(value) ? null : { code: "date_format" };
    case "select":
      return typeof value === "string" && cf.choices.includes(value) ? null : { code: "invalid_choice", value, choices: cf.choices };
    case "multi-select": {
      const items: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? Array.from(value) : [value];
      return items.every((x) => typeof x === "string" && cf.choices.includes(x)) ? null : { code: "invalid_choices", value, choices: cf.choices };
    }
    default:
      return null;
  }
}

/**
 * Nautobot's CustomFieldModel.clean over an object's whole data: every known key's value, then
 * the missing ones (required: refused; otherwise filled with the default). Unknown keys stay.
 */
export function cleanData(defs: CustomFieldDefinition[], data: Record<string, unknown>): { data: Record<string, unknown> } | { error: Problem } {
  const byName = new Map(defs.map((cf) => [cf.name, cf]));
  for (const [name, value] of Object.entries(data)) {
    const cf = byName.get(name);
    const reason = cf && valueProblem(cf, value);
    if (reason) return { error: { code: "custom_field_invalid", name, reason } };
  }
  const out = { ...data };
  for (const cf of defs) {
    if (cf.name in out) continue;
    if (cf.required) return { error: { code: "custom_field_missing", name: cf.name } };
    out[cf.name] = cf.default;
  }
  return { data: out };
}

/** The values an object gets on create when the request leaves `custom_fields` out: every default (or null), by `key`. */
export function defaults(defs: CustomFieldDefinition[], key: "name" | "slug" = "name"): Record<string, unknown> {
  return Object.fromEntries(defs.map((cf) => [cf[key], cf.default ?? null]));
}
