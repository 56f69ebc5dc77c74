// One JSON line per request, through pino: time, level, method, path, status, duration, user
// and request id (and the pid, which tells the workers of one server apart). Only those fields,
// by construction: no header, query string or body is handed to the logger, so no token or
// password can reach the log. Profiles name the user once they have authenticated the request.
import pino, { type Logger } from "pino";
import type { RequestHandler, Response } from "express";
import { requestId } from "./failures.js";

/** pino's levels, and `silent`; a request line is `error` for a 5xx answer, `warn` for a 4xx, else `info`. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function jsonLogger(level: string): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  // Synchronous, as console.log is on a pipe: the lines of requests answered just before the
  // process exits are written, not left in a buffer.
  }, pino.destination({ dest: 1, sync: true }));
}

const securityLogs = new Map<string, Logger>();

/**
 * The log of security events (password logins and token provisioning: success, failure,
 * throttled), as JSON lines beside the request lines: the user named and the client's
 * address, never a password or a token. Undefined where request logging is off.
 */
export function securityLog(config: { logRequests: boolean; logLevel: string }): Logger | undefined {
  if (!config.logRequests) return undefined;
  let log = securityLogs.get(config.logLevel);
  if (!log) securityLogs.set(config.logLevel, (log = jsonLogger(config.logLevel)));
  return log;
}

/** Names the user a request came from in its log line. */
export function identified(res: Response, username: string | undefined): void {
  res.locals.user = username;
}

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on("close", () => {
      const status = res.statusCode;
      const level = status >= 500 ? "error" : status >= 400 ? "warn" : "info";
      log[level]({
        method: req.method,
        path: req.originalUrl.split("?")[0],
        status,
        duration_ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
        user: res.locals.user ?? null,
        request_id: requestId(res),
        // The client went away before the whole answer was sent.
        ...(res.writableFinished ? {} : { aborted: true }),
      }, "request");
    });
    next();
  };
}
