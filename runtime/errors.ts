// Profile-neutral errors the runtime raises. Each API profile maps them to its own wire
// format (DRF `{"detail"}` / field-keyed bodies, WordPress `{code, message, data}`) and puts
// the problems they carry (runtime/problems.ts) in its own words.
import type { ErrorTree, Problem } from "./problems.js";

export type FieldErrors = Record<string, ErrorTree>;

/** 400: the input is invalid. `errors` is field-keyed, or a list of such for bulk bodies. */
export class ValidationError extends Error {
  constructor(readonly errors: FieldErrors | FieldErrors[]) {
    super("validation failed");
  }
}

/**
 * An HTTP error with a single message: 403, 404, 405, 406, 409, 415, … The engine gives a
 * problem, which the profile words (its code is the message, for logs); a profile gives its
 * own text.
 */
export class HttpError extends Error {
  readonly problem?: Problem;
  readonly code?: string;

  constructor(readonly status: number, what: string | Problem, code?: string, readonly headers: Record<string, string> = {}) {
    super(typeof what === "string" ? what : what.code);
    if (typeof what !== "string") this.problem = what;
    this.code = code ?? this.problem?.code;
  }
}

/**
 * An answer other than the route's own, its body sent as given, in no error format: what a
 * view answers with a bare value and a status (DRF's `Response("…", status=403)`).
 */
export class Answer extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`answered ${status}`);
  }
}

export const notFound = () => new HttpError(404, { code: "not_found" });
export const forbidden = () => new HttpError(403, { code: "forbidden" });
