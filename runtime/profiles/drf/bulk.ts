// Bulk bodies, all-or-none: every element is checked before anything is written, and the
// errors come back as DRF does for list serializers, a list as long as the body with `{}`
// for the good elements, so a client can tell which element failed.
import { ValidationError, type FieldErrors } from "../../errors.js";
import { canonicalUuid as canonical, isUuid } from "../../query/filters.js";
import { pyType } from "./wording.js";

const failed = (errors: FieldErrors[]) => errors.some((e) => Object.keys(e).length > 0);

/** `value` if it is an object; else DRF's 400 for a body that should have been one. */
export function expectObject(value: unknown): Record<string, unknown> {
  const shape = notAnObject(value);
  if (shape) throw new ValidationError(shape);
  return value as Record<string, unknown>;
}

/** DRF's refusal of a value that should have been an object (a body, or an element of one); null for an object. */
export function notAnObject(value: unknown): FieldErrors | null {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return null;
  return { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyType(value)}.`] };
}

/** An integer as DRF's IntegerField reads one (a whole number, or its digits), as text; null otherwise. */
function integerId(id: unknown): string | null {
  if (typeof id === "number") return Number.isSafeInteger(id) ? String(id) : null;
  return typeof id === "string" && /^\s*[+-]?\d+\s*$/.test(id) ? BigInt(id.trim()).toString() : null;
}

/**
 * The ids of a bulk update or delete body, one per element: each element an object whose
 * `id` is a UUID string (an integer, as Nautobot's BulkOperationIntegerIDSerializer reads
 * it, for a model with `integerKeys`), no id twice. Anything else refuses the whole body.
 */
export function bulkIds(items: unknown[], integerKeys = false): string[] {
  const seen = new Set<string>();
  const ids: string[] = [];
  const errors = items.map((item): FieldErrors => {
    const shape = notAnObject(item);
    if (shape) return shape;
    const id = (item as { id?: unknown }).id;
    if (id === undefined) return { id: ["This field is required."] };
    const key = integerKeys ? integerId(id) : typeof id === "string" && isUuid(id) ? canonical(id) : null;
    if (key === null) return { id: [integerKeys ? "A valid integer is required." : "Must be a valid UUID."] };
    if (seen.has(key)) return { id: ["This object appears more than once in the request."] };
    seen.add(key);
    ids.push(key);
    return {};
  });
  if (failed(errors)) throw new ValidationError(errors);
  return ids;
}

/** Refuses the whole body when any of `wanted` is not among `found` (unknown, or not visible). */
export function requireAll(wanted: string[], found: string[]): void {
  const have = new Set(found);
  const errors = wanted.map((id): FieldErrors => (have.has(id) ? {} : { id: ["Object with this ID does not exist."] }));
  if (failed(errors)) throw new ValidationError(errors);
}
