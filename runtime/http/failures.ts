// What happens when the server itself fails: every request carries an id (the caller's
// X-Request-Id when it is a plain token, else a new one) that is echoed in the reply, and a
// failure is logged server-side under that id with its details. The client gets the id,
// never the exception text, stack or SQL.
import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

const GIVEN = /^[\w.:-]{1,128}$/;

export const requestIds: RequestHandler = (req, res, next) => {
  const given = req.get("x-request-id");
  res.locals.requestId = given && GIVEN.test(given) ? given : randomUUID();
  res.set("X-Request-Id", res.locals.requestId);
  next();
};

export function requestId(res: Response): string {
  return String(res.locals.requestId ??= randomUUID());
}

/** Logs an unexpected failure with everything known about it; gives the id to show the client. */
export function reportFailure(req: Request, res: Response, err: unknown): string {
  const id = requestId(res);
  console.error(`request ${id} failed: ${req.method} ${req.originalUrl}\n`, err);
  return id;
}
