// WordPress REST errors: `{code, message, data: {status, ...}}` with the status taken from
// data. Gives the error class and the helpers for the codes WordPress core itself uses;
// the plugin-style codes are made by callers from a model's noun.
import type { ErrorTree, Leaf } from "../../problems.js";

/** WordPress's message for a parameter it refuses without saying why. */
export const INVALID = "Invalid parameter.";

/**
 * A refusal of one parameter in WordPress's words: a hook's own text as it is; an engine's
 * problem (or a nested refusal) as WordPress refuses a parameter it says no more about.
 */
export function paramMessage(node: Leaf | ErrorTree): string {
  return typeof node === "string" ? node : INVALID;
}

export class WpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

/**
 * 400 `rest_invalid_param`: each bad parameter with its message. `types` names the JSON type
 * of the parameters that failed a type check: WordPress reports those again under `details`
 * as `rest_invalid_type` errors, and leaves `details` an empty list otherwise.
 */
export function invalidParams(params: Record<string, string>, types: Record<string, string> = {}): WpError {
  const details = Object.entries(types).map(([name, type]) => [name, { code: "rest_invalid_type", message: notOfType(name, type), data: { param: name } }]);
  return new WpError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, { params, details: details.length ? Object.fromEntries(details) : [] });
}

export function invalidParam(name: string, message = INVALID): WpError {
  return invalidParams({ [name]: message });
}

/** WordPress's message for a value of the wrong JSON type. */
export function notOfType(name: string, type: string): string {
  return `${name} is not of type ${type}.`;
}

/** A parameter whose value is not of its declared JSON type (`boolean`, …). */
export function invalidType(name: string, type: string): WpError {
  return invalidParams({ [name]: notOfType(name, type) }, { [name]: type });
}

export function missingParams(names: string[]): WpError {
  return new WpError(400, "rest_missing_callback_param", `Missing parameter(s): ${names.join(", ")}`, { params: names });
}

export const noRoute = () => new WpError(404, "rest_no_route", "No route was found matching the URL and request method.");

/** 401 when nobody is logged in, 403 when the user lacks the right. */
export function forbidden(loggedIn: boolean): WpError {
  return new WpError(loggedIn ? 403 : 401, "rest_forbidden", "Sorry, you are not allowed to do that.");
}
