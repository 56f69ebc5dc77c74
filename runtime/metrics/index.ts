// Prometheus metrics (METRICS_ENABLED): the router measures every request the site answers and
// serves `GET /metrics` (and `/metrics/`, Nautobot's path) in Prometheus' text format, the whole
// server's series (cluster.ts) with what the scrape reads from the database (scrape.ts). With
// METRICS_AUTHENTICATED (the default) only a requester the users' API authenticates may read
// it, refused in that API's words. A request is labelled with the route template its profile
// matched (runtime/telemetry.ts), never its raw path. This module lives beside the runtime's
// other site-wide pieces rather than among the features: it observes every API, the database,
// the queue and the features alike, and brings no model anything.
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Knex } from "knex";
import type { ApiDescriptor } from "../descriptor.js";
import type { Config } from "../config.js";
import type { Identities } from "../auth/identities.js";
import { profiles } from "../profiles/index.js";
import { subscribe } from "../telemetry.js";
import { processSeries, type ProcessSeries } from "./series.js";
import { scrapeRegistry } from "./scrape.js";
import { shareWithPrimary, wholeServer } from "./cluster.js";

export { aggregateForWorkers } from "./cluster.js";

/** The paths of the scrape: Prometheus' default, and Nautobot's. */
const PATHS = ["/metrics", "/metrics/"];

export interface MetricsDeps {
  apis: ApiDescriptor[];
  db: Knex;
  config: Config;
  identities?: Identities;
}

/** What profiles said each answer's route was. */
const routed = new WeakMap<ServerResponse, { api: string; route: string | null }>();
let listening = false;

/**
 * `measure` times every request the site answers, whichever path it takes (the fast path
 * runs it too: runtime/http/fast-path.ts); `router` serves the scrape.
 */
export function metricsRoutes({ apis, db, config, identities }: MetricsDeps): { measure: RequestHandler; router: Router } {
  const series = processSeries();
  series.watch(db);
  shareWithPrimary(series.registry);
  if (!listening) {
    listening = true;
    subscribe("http.routed", ({ res, api, route }) => routed.set(res, { api, route }));
  }
  const router = express.Router();
  const scrape = scrapeRegistry(db);
  const owner = apis.find((a) => a.auth);
  const guard = config.metrics.authenticated ? owner && profiles[owner.profile].requireAuthenticated?.({ api: owner, db, config, identities }) : undefined;
  if (config.metrics.authenticated && !guard) throw new Error("METRICS_AUTHENTICATED: no API here authenticates users; set METRICS_AUTHENTICATED=0 to serve /metrics to anyone");
  const serve: RequestHandler = async (_req, res, next) => {
    try {
      const text = (await wholeServer(series.registry)) + (await scrape.metrics());
      res.status(200).set("Content-Type", scrape.contentType).set("Cache-Control", "no-store").send(text);
    } catch (err) {
      next(err);
    }
  };
  const labelled: RequestHandler = (_req, res, next) => {
    routed.set(res, { api: "none", route: "/metrics" });
    next();
  };
  router.get(PATHS, labelled, ...(guard ? [guard] : []), serve);
  return { measure: measure(series, mountsOf(apis, config)), router };
}

/**
 * The HTTP server of a process that serves no API (`armature worker`): `/metrics` alone, so
 * that the attempts, deliveries and job runs of a worker of its own are counted too.
 */
export function metricsServer(deps: MetricsDeps): Server {
  const app = express();
  app.disable("x-powered-by");
  const { measure, router } = metricsRoutes(deps);
  app.use(measure, router);
  app.use((_req, res) => res.status(404).json({ detail: "Not found." }));
  return createServer(app);
}

/** Where each API is mounted, longest first: a request no profile routed is still its API's. */
function mountsOf(apis: ApiDescriptor[], config: Config): Array<[string, string]> {
  return apis.map((api) => [profiles[api.profile].mountPath(api, config), api.name] as [string, string]).sort((a, b) => b[0].length - a[0].length);
}

/** Times every request and counts its bytes, recorded under its route's labels once the answer is sent. */
function measure(series: ProcessSeries, mounts: Array<[string, string]>): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const sent = countSent(res);
    series.started();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      series.answered({ ...routeOf(req, res, mounts), method: req.method, status: String(res.statusCode) }, seconds, received(req), sent());
    };
    res.once("finish", record);
    // A client that went away before the answer was sent in full.
    res.once("close", record);
    next();
  };
}

/** The API and route template of an answer: its profile's, the site route Express matched (API `none`). */
function routeOf(req: Request, res: Response, mounts: Array<[string, string]>): { api: string; route: string } {
  const found = routed.get(res);
  if (found) return { api: found.api, route: found.route ?? "" };
  const path = req.originalUrl.split("?")[0];
  const api = mounts.find(([mount]) => path === mount || path.startsWith(`${mount}/`))?.[1] ?? "none";
  const site = (req as { route?: { path?: unknown } }).route?.path;
  return { api, route: api === "none" && typeof site === "string" ? `${req.baseUrl}${site}` : "" };
}

/** The request body's size: as read, or as announced when nothing read it. */
function received(req: Request): number {
  if (Buffer.isBuffer(req.body)) return req.body.length;
  const announced = Number(req.get("content-length"));
  return Number.isFinite(announced) && announced > 0 ? announced : 0;
}

/** Counts the body bytes `res` writes; gives the count so far. */
function countSent(res: Response): () => number {
  let bytes = 0;
  const count = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") bytes += Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    count(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") count(chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response["end"];
  return () => bytes;
}
