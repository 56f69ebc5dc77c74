// The WordPress requests the fast path answers (runtime/http/fast-path.ts): reads of the API's
// own paths (its namespace, the REST root, application passwords), through the same body
// reader and request handler as the router's. Writes, Swagger UI's files below the namespace's
// `doc/static` and every path the API does not claim are left to Express: other APIs sharing
// the REST root get their turn there, and WordPress's `rest_no_route` after them.
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { FastRoutes } from "../../http/fast-path.js";
import type { WpDispatcher } from "./dispatch.js";

const READS = new Set(["GET", "HEAD"]);

export interface WpFastDeps {
  dispatcher: WpDispatcher;
  /** The namespace's Swagger UI files, below the mount without its leading `/`. */
  statics: string;
  readBody: RequestHandler;
  /** The router's request handler, made to tell that the fast path routed it. */
  handler: RequestHandler;
  /** Answers a body the reader refused, as the router's error handler does. */
  unread: ErrorRequestHandler;
  /** What the site answers below the REST root for a path no API claims (never reached for a claimed one). */
  noRoute: RequestHandler;
}

export function wordpressFastRoutes({ dispatcher, statics, readBody, handler, unread, noRoute }: WpFastDeps): FastRoutes {
  return {
    claim(method, path) {
      if (!READS.has(method) || path === statics || path.startsWith(`${statics}/`)) return undefined;
      // As the request handler reads `req.path`: without its trailing slashes.
      if (!dispatcher.claims(`/${path}`.replace(/\/+$/, "") || "/")) return undefined;
      return (req, res) => readBody(req, res, (err?: unknown) => {
        if (err) return void unread(err, req, res, () => undefined);
        void handler(req, res, () => noRoute(req, res, () => undefined));
      });
    },
  };
}
