// Builds the HTTP application for a set of API descriptors: one router per API, mounted
// by its profile, sharing one database and one identity store (the API with an `auth`
// section provides it), with the health checks (runtime/http/health.ts) beside them. Gives a
// request listener: the hot requests of a profile that claims them take the fast path
// (runtime/http/fast-path.ts), everything else the Express app. Listening is the caller's business.
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { Knex } from "knex";
import type { ApiDescriptor } from "./descriptor.js";
import type { Config } from "./config.js";
import { ModelIndex } from "./models.js";
import { Identities } from "./auth/identities.js";
import { profiles } from "./profiles/index.js";
import { origin, originForm } from "./http/request.js";
import { corsPolicy, securityHeaders } from "./http/security.js";
import { reportFailure, requestIds } from "./http/failures.js";
import { jsonLogger, requestLog } from "./http/request-log.js";
import { favicon } from "./http/favicon.js";
import { healthRoutes } from "./http/health.js";
import { MEDIA_PATH, mediaRoutes, useMedia } from "./media/index.js";
import { migrationSets } from "./db/runtime-migrations.js";
import { metricsRoutes } from "./metrics/index.js";
import { checkPluginNames } from "./plugins.js";
import { site, type FastRoutes, type Site } from "./http/fast-path.js";

export function identitiesFor(apis: ApiDescriptor[]): Identities | undefined {
  const owner = apis.find((a) => a.auth);
  return owner ? new Identities(new ModelIndex(owner)) : undefined;
}

/** Paths the site serves itself before any API: an API mounted over one is left to Express. */
const SITE_PATHS = ["/metrics", "/health", "/favicon.ico", MEDIA_PATH];

export function createApp(apis: ApiDescriptor[], db: Knex, config: Config): Site {
  checkPluginNames(apis, config.plugins);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", "loopback");
  const front: RequestHandler[] = [requestIds];
  if (config.logRequests) front.push(requestLog(jsonLogger(config.logLevel)));
  front.push(...securityHeaders());
  const cors = corsPolicy(config);
  if (cors) front.push(cors);
  // Before everything it measures, and its `/metrics` before the APIs, as health's below.
  const metrics = config.metrics.enabled ? metricsRoutes({ apis, db, config, identities: identitiesFor(apis) }) : undefined;
  if (metrics) front.push(metrics.measure);
  app.use(...front);
  if (metrics) app.use(metrics.router);
  // Before the APIs: a profile mounted at the site root must not take these paths.
  app.use(healthRoutes(db, migrationSets(apis)));
  app.use(favicon());
  useMedia({ root: config.mediaRoot, maxBytes: config.uploadLimit });
  app.use(MEDIA_PATH, mediaRoutes());
  const identities = identitiesFor(apis);
  const mounts: Record<string, string> = {};
  const taken = [...SITE_PATHS];
  const fast: Array<[string, FastRoutes]> = [];
  for (const api of apis) {
    const profile = profiles[api.profile];
    if (!profile) throw new Error(`API ${api.name}: no runtime profile "${api.profile}"`);
    const path = profile.mountPath(api, config);
    mounts[api.name] = `${path}/`;
    const mounted = profile.mount({ api, db, config, identities });
    app.use(path, mounted.router);
    if (mounted.fast && path !== "" && !taken.some((p) => overlaps(p, path))) fast.push([path, mounted.fast]);
    taken.push(path);
  }
  const used = [...new Set(apis.map((a) => profiles[a.profile]))];
  for (const p of used) {
    const fallback = p.notFound?.(config);
    // A profile mounted at the site root must not shadow the site's own `/` and 404.
    if (fallback?.path) app.use(fallback.path, fallback.handler);
  }
  const siteLinks = used.filter((p) => p.siteLinks);
  app.get("/", (req, res) => {
    for (const p of siteLinks) for (const link of p.siteLinks!(config, origin(req, config.publicUrl))) res.append("Link", link);
    res.json({ apis: mounts });
  });
  app.use((_req, res) => res.status(404).json({ detail: "Not found." }));
  app.use(siteFailure);
  // An app's router strips mount paths against the request target it started with, so a target
  // in absolute form must become a path before the app that routes it begins: hence this shell.
  const shell = express();
  shell.disable("x-powered-by");
  shell.use(originForm, app);
  return site({ shell, app, front, failed: siteFailure, mounts: fast });
}

/** Whether Express, which matches mount paths whole segments at a time and in any case, could route a request of one to the other. */
function overlaps(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`) || x === "" || y === "";
}

/** Profiles answer their own failures; this catches whatever fails outside them. */
const siteFailure: ErrorRequestHandler = (err, req, res, _next) => {
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    res.status(status).json({ detail: "Bad request." });
    return;
  }
  res.status(500).json({ detail: "Internal server error.", request_id: reportFailure(req, res, err) });
};
