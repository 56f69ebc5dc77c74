// Builds the HTTP application for a set of API descriptors: one router per API, mounted
// by its profile, sharing one database and one identity store (the API with an `auth`
// section provides it), with the health checks (runtime/http/health.ts) beside them. Gives an
// Express app; listening is the caller's business.
import express, { type Express } from "express";
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

export function identitiesFor(apis: ApiDescriptor[]): Identities | undefined {
  const owner = apis.find((a) => a.auth);
  return owner ? new Identities(new ModelIndex(owner)) : undefined;
}

export function createApp(apis: ApiDescriptor[], db: Knex, config: Config): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", "loopback");
  app.use(requestIds);
  if (config.logRequests) app.use(requestLog(jsonLogger(config.logLevel)));
  app.use(...securityHeaders());
  const cors = corsPolicy(config);
  if (cors) app.use(cors);
  // Before everything it measures, and its `/metrics` before the APIs, as health's below.
  if (config.metrics.enabled) app.use(metricsRoutes({ apis, db, config, identities: identitiesFor(apis) }));
  // Before the APIs: a profile mounted at the site root must not take these paths.
  app.use(healthRoutes(db, migrationSets(apis)));
  app.use(favicon());
  useMedia({ root: config.mediaRoot, maxBytes: config.uploadLimit });
  app.use(MEDIA_PATH, mediaRoutes());
  const identities = identitiesFor(apis);
  const mounts: Record<string, string> = {};
  for (const api of apis) {
    const profile = profiles[api.profile];
    if (!profile) throw new Error(`API ${api.name}: no runtime profile "${api.profile}"`);
    const path = profile.mountPath(api, config);
    mounts[api.name] = `${path}/`;
    app.use(path, profile.router({ api, db, config, identities }));
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
  // Profiles answer their own failures; this catches whatever fails outside them.
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).json({ detail: "Bad request." });
      return;
    }
    res.status(500).json({ detail: "Internal server error.", request_id: reportFailure(req, res, err) });
  });
  // An app's router strips mount paths against the request target it started with, so a target
  // in absolute form must become a path before the app that routes it begins: hence this shell.
  const shell = express();
  shell.disable("x-powered-by");
  shell.use(originForm, app);
  return shell;
}
