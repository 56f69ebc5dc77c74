// What a failure becomes: WordPress's `{code, message, data}` error. A WpError as it is; the
// body reader's refusals as the client's errors; anything else a 500 whose request id points
// at the logged failure.
import type { Response } from "express";
import { reportFailure } from "../../http/failures.js";
import { databaseUnavailable, RETRY_AFTER_SECONDS, unstorableText } from "../../db/errors.js";
import { WpError } from "./errors.js";
import { RateLimited } from "../../http/rate-limits.js";
import { tooManyRequests } from "./rate-limit.js";
import type { Params } from "./params.js";
import type { WpRenderer } from "./renderer.js";

export type WpExceptionHandler = (res: Response, err: unknown, params: Params) => void;

/** The error WordPress would answer for `err`. */
function wpError(res: Response, err: unknown): WpError {
  const status = (err as { status?: unknown }).status;
  if (err instanceof WpError) return err;
  if (err instanceof RateLimited) return tooManyRequests(err);
  if ((err as { type?: string }).type === "entity.too.large") return new WpError(413, "rest_request_too_large", "The request body is too large.");
  if (databaseUnavailable(err)) {
    res.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return new WpError(503, "rest_database_unavailable", "The database is unavailable; try again shortly.");
  }
  if (unstorableText(err)) return new WpError(400, "rest_invalid_param", "Invalid parameter(s): null characters are not allowed.");
  // The body reader's other refusals (an unknown charset, a broken stream) are the client's.
  if (typeof status === "number" && status >= 400 && status < 500) return new WpError(status, "rest_invalid_request", "The request could not be read.");
  return new WpError(500, "rest_internal_error", "An internal error occurred.", { request_id: reportFailure(res.req, res, err) });
}

export function exceptionHandler(renderer: WpRenderer): WpExceptionHandler {
  return (res, err, params) => {
    const e = wpError(res, err);
    renderer.json(res, params, e.status, e.body());
  };
}
