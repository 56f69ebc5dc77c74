// The hook authors' module: the hook types (defined with the descriptors) and the refusal a
// hook throws. A refusal becomes a 4xx in the API's own format and rolls back the write,
// like any validation error.
import { ValidationError } from "./errors.js";

export type { ActionEvent, DeleteEvent, HookDb, ModelHooks, ReadValue, SaveEvent } from "./descriptor.js";

/**
 * What a hook refuses, with messages by field name (or `non_field_errors`): a validation
 * error like any other, wherever the hook runs (before or after a save, a delete, an action).
 */
export class Refusal extends ValidationError {
  constructor(messages: Record<string, string>) {
    super(Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, [v]])));
  }
}
