// DRF's exception handler: every failure as the status and `detail` (or field errors) DRF
// answers it with; anything unexpected a 500 naming the request's id in the log.
import type { Response } from "express";
import { Answer, HttpError, ValidationError } from "../../errors.js";
import { contentType } from "../../http/request.js";
import { reportFailure } from "../../http/failures.js";
import { databaseUnavailable, RETRY_AFTER_SECONDS, unstorableText } from "../../db/errors.js";
import { wordErrors, wordProblem } from "./wording.js";
import type { Ctx, DrfServices } from "./context.js";
import { send } from "./renderer.js";
import { throttled } from "./authentication.js";
import { RateLimited } from "../../http/rate-limits.js";

export function handleException(drf: DrfServices, res: Response, failure: unknown, ctx?: Ctx): void {
  const err = failure instanceof RateLimited ? throttled(failure) : failure;
  const e = err as { type?: string; status?: number; message?: string };
  let statusCode: number;
  let body: unknown;
  if (err instanceof ValidationError) { statusCode = 400; body = wordErrors(err.errors); }
  else if (err instanceof Answer) { statusCode = err.status; body = err.body; }
  else if (err instanceof HttpError) { statusCode = err.status; body = { detail: err.problem ? wordProblem(err.problem) : err.message }; for (const [k, v] of Object.entries(err.headers)) res.set(k, v); }
  else if (e?.type === "entity.too.large") {
    statusCode = 413;
    const limit = contentType(res.req) === "multipart/form-data" ? `${drf.uploadBodyLimit} bytes` : drf.config.bodyLimit;
    body = { detail: `Request body is larger than the limit of ${limit}.` };
  }
  else if (databaseUnavailable(err)) {
    statusCode = 503;
    body = { detail: "The database is unavailable; try again shortly." };
    res.set("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  else if (unstorableText(err)) { statusCode = 400; body = { detail: wordProblem({ code: "null_characters" }) }; }
  else if (typeof e?.status === "number" && e.status >= 400 && e.status < 500) { statusCode = e.status; body = { detail: e.message ?? "Bad request." }; }
  else {
    statusCode = 500;
    body = { detail: "Internal server error.", request_id: reportFailure(res.req, res, err) };
  }
  if (ctx) send(ctx, statusCode, body);
  else res.status(statusCode).json(body);
}
