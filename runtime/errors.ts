// Profile-neutral errors the runtime raises. Each API profile maps them to its own wire
// format (DRF `{"detail"}` / field-keyed bodies, WordPress `{code, message, data}`).

export type FieldErrors = Record<string, string[] | unknown[] | Record<string, unknown>>;

/** 400: the input is invalid. `errors` is field-keyed, or a list of such for bulk bodies. */
export class ValidationError extends Error {
  constructor(readonly errors: FieldErrors | FieldErrors[]) {
    super("validation failed");
  }
}

/** An HTTP error with a single message: 403, 404, 405, 406, 409, 415, … */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly code?: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

export const notFound = (message = "Not found.") => new HttpError(404, message, "not_found");
export const forbidden = (message = "You do not have permission to perform this action.") => new HttpError(403, message, "forbidden");
