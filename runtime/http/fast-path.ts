// The site as Node's HTTP server calls it: a request a profile claims (a hot read or write of
// its route table) is answered from this listener without Express's routers, every other one
// goes to the Express app as it is. A claimed request is given what Express would have given
// it by the time the profile's handler ran: the app's request and response prototypes (born
// with them on a server made with the site's `classes`), the site's front handlers (request
// id, log, security headers, CORS, metrics) in their order, and the mount path stripped into
// `baseUrl`. Which requests a profile claims is its business.
import http, { IncomingMessage, ServerResponse, type IncomingHttpHeaders, type Server } from "node:http";
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from "express";
import { toOriginForm } from "./request.js";

/** Answers a claimed request once the front handlers ran; `req.baseUrl` is its mount, `req.url` the rest. */
export type FastAnswer = (req: Request, res: Response) => void;

/** What a profile answers without Express, decided once per request from its target. */
export interface FastRoutes {
  /**
   * The answer to a request for `path` (below the mount, without its leading `/`) with query
   * string `query` (without its `?`), or undefined when Express must serve it.
   */
  claim(method: string, path: string, query: string, headers: IncomingHttpHeaders): FastAnswer | undefined;
}

/** The site as a request listener, and a shorthand to listen with it (as Express's `app.listen`). */
export interface Site {
  (req: IncomingMessage, res: ServerResponse): void;
  listen(port: number, host: string, ready?: () => void): Server;
  /** The Express app alone: every request answered as the site answers it, none by the fast path. */
  express: Express;
  /** The request and response classes a server of the site is made with (`http.createServer(site.classes, site)`). */
  classes: Classes;
}

interface Classes {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Classes whose objects are born with the app's prototypes, which Express gives each request
 * with Object.setPrototypeOf: V8 reads the properties of an object whose prototype changed
 * after it was made far more slowly, and the views read many (a third of a claimed prefix
 * detail's CPU, measured).
 */
function classesOf(app: Express): Classes {
  class SiteRequest extends IncomingMessage {}
  Object.setPrototypeOf(SiteRequest.prototype, app.request);
  class SiteResponse extends ServerResponse {}
  Object.setPrototypeOf(SiteResponse.prototype, app.response);
  return { IncomingMessage: SiteRequest, ServerResponse: SiteResponse as typeof ServerResponse };
}

export interface FastPath {
  /** The outer Express app, which takes every request no profile claims. */
  shell: Express;
  /** The app whose prototypes and settings the profiles' handlers expect (`etag`, `trust proxy`). */
  app: Express;
  /** The app's handlers before the APIs, in order. */
  front: RequestHandler[];
  /** What fails in `front`, answered as the app answers it. */
  failed: ErrorRequestHandler;
  /** Each API's mount path (not empty, no earlier handler's path below it) and what it claims. */
  mounts: Array<[string, FastRoutes]>;
}

/** Characters after which parseurl (Express's `req.path`) parses a target otherwise than a split at `?`. */
const UNUSUAL = /[#\s\u00a0\ufeff]/;

const SLASH = 47;

type Step = (req: Request, res: Response, done: NextFunction) => void;

/** The handlers as one step, composed once: each one's `next` runs the following one. */
function chain(handlers: RequestHandler[]): Step {
  return handlers.reduceRight<Step>(
    (rest, handler) => (req, res, done) => void handler(req, res, (err?: unknown) => (err ? done(err) : rest(req, res, done))),
    (_req, _res, done) => done(),
  );
}

export function site({ shell, app, front, failed, mounts }: FastPath): Site {
  const before = chain(front);
  const classes = classesOf(app);
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    toOriginForm(incoming);
    const url = incoming.url!;
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    for (const [mount, routes] of mounts) {
      if (path.length <= mount.length || !path.startsWith(mount) || path.charCodeAt(mount.length) !== SLASH || UNUSUAL.test(url)) continue;
      const answer = routes.claim(incoming.method!, path.slice(mount.length + 1), q < 0 ? "" : url.slice(q + 1), incoming.headers);
      if (answer) return claimed(incoming, outgoing, mount, answer);
      break;
    }
    shell(incoming, outgoing);
  };
  const claimed = (incoming: IncomingMessage, outgoing: ServerResponse, mount: string, answer: FastAnswer) => {
    // What Express's app.handle and its router set before the first handler.
    const req = (incoming instanceof classes.IncomingMessage ? incoming : Object.setPrototypeOf(incoming, app.request)) as Request;
    const res = (outgoing instanceof classes.ServerResponse ? outgoing : Object.setPrototypeOf(outgoing, app.response)) as Response;
    req.res = res;
    res.req = req;
    res.locals = Object.create(null) as Response["locals"];
    req.baseUrl = "";
    req.originalUrl = req.url;
    before(req, res, (err?: unknown) => {
      if (err) return failed(err, req, res, () => undefined);
      // As the router mounting the API leaves them for its handlers.
      req.baseUrl = mount;
      req.url = req.url.slice(mount.length);
      answer(req, res);
    });
  };
  return Object.assign(listener, {
    express: shell,
    classes,
    listen: (port: number, host: string, ready?: () => void) => http.createServer(classes, listener).listen(port, host, ready),
  });
}
