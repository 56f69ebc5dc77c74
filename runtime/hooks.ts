// The hook authors' module: the hook types (defined with the descriptors) and the refusal a
// hook throws. A refusal becomes a 4xx in the API's own format and rolls back the write,
// like any validation error.
export type { ActionEvent, DeleteEvent, HookDb, ModelHooks, ReadValue, SaveEvent } from "./descriptor.js";

/** A write a hook refuses: messages by field name (or `non_field_errors`). */
export class Refusal extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(Object.values(errors).join(" "));
  }
}
