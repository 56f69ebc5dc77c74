// Bulk bodies, all-or-none: every element is checked before anything is written, and the
// errors come back as DRF does for list serializers, a list as long as the body with `{}`
// for the good elements, so a client can tell which element failed.
import type { Knex } from "knex";
import { ValidationError, type FieldErrors } from "../../errors.js";
import { isUuid } from "../../query/filters.js";
import { pyType } from "../../text/python.js";

const failed = (errors: FieldErrors[]) => errors.some((e) => Object.keys(e).length > 0);

/** `0123…` or `0123-…` → the canonical lower-case, hyphenated form PostgreSQL gives back. */
function canonical(id: string): string {
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The ids of a bulk update or delete body, one per element: each element an object whose
 * `id` is a UUID string, no id twice. Anything else refuses the whole body.
 */
export function bulkIds(items: unknown[]): string[] {
  const seen = new Set<string>();
  const ids: string[] = [];
  const errors = items.map((item): FieldErrors => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyType(item)}.`] };
    }
    const id = (item as { id?: unknown }).id;
    if (id === undefined) return { id: ["This field is required."] };
    if (typeof id !== "string" || !isUuid(id)) return { id: ["Must be a valid UUID."] };
    const key = canonical(id);
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

/**
 * Runs `write` for each element in a savepoint of `trx`, collecting each element's validation
 * errors; when any failed, throws them all as one list (and the caller's transaction rolls back),
 * as DRF's list serializer reports a bulk create.
 */
export async function eachItem<T>(trx: Knex.Transaction, items: unknown[], write: (sp: Knex.Transaction, item: unknown) => Promise<T>): Promise<T[]> {
  const errors: FieldErrors[] = [];
  const done: T[] = [];
  for (const item of items) {
    try {
      done.push(await trx.transaction((sp) => write(sp, item)));
      errors.push({});
    } catch (err) {
      if (!(err instanceof ValidationError) || Array.isArray(err.errors)) throw err;
      errors.push(err.errors);
    }
  }
  if (failed(errors)) throw new ValidationError(errors);
  return done;
}
