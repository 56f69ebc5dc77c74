// The hook authors' module: the hook types (defined with the descriptors) and the refusal a
// hook throws. A refusal becomes a 4xx in the API's own format and rolls back the write,
// like any validation error.
import { ValidationError } from "./errors.js";

import type { MethodFilter } from "./descriptor.js";

export type { ActionEvent, AllocateEvent, Allocation, DeleteEvent, HookDb, MethodFilter, ModelHooks, ReadValue, SaveEvent } from "./descriptor.js";

/** What a method filter's condition is given. */
export type MethodQuery = Parameters<MethodFilter>[0];

/**
 * A JSON column's value as a hook meets it: JSON text in a save's `values` (as it is written),
 * parsed in a row read back from the database.
 */
export const jsonValue = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v);

/**
 * What a hook refuses, with messages by field name (or `non_field_errors`): a validation
 * error like any other, wherever the hook runs (before or after a save, a delete, an action).
 */
export class Refusal extends ValidationError {
  constructor(messages: Record<string, string>) {
    super(Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, [v]])));
  }
}
