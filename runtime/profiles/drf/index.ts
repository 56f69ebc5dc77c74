// The DRF-style profile: serves an API descriptor the way Django REST framework serves a
// Nautobot/NetBox-like API. A request goes route (the generated table, routes.ts) →
// negotiate → authenticate → its view (views/), which asks the API's policy (policy.ts) to
// authorize, page and render; every failure becomes a DRF-shaped error. It knows models only
// through descriptors.
import express, { type Request, type Response, type Router } from "express";
import type { Mounted } from "../index.js";
import type { Knex } from "knex";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ApiDescriptor, DrfRoute, DrfView } from "../../descriptor.js";
import type { Config } from "../../config.js";
import { FilterCompiler } from "../../query/filters.js";
import { dynamicFilters, viewExempt } from "../../features/index.js";
import { notFound } from "../../errors.js";
import type { Identities } from "../../auth/identities.js";
import { origin, queryParams, slashed } from "../../http/request.js";
import { EXPORT_PARAM, exportTemplates } from "../../features/index.js";
import { Tokens } from "../../auth/tokens.js";
import { Engine } from "../../engine.js";
import { Allocations } from "../../operations/allocations.js";
import { publish } from "../../telemetry.js";
import { serveGraphiqlAssets } from "./graphql.js";
import { redocAssets } from "./redoc-assets.js";
import { RouteTable } from "./routes.js";
import { fastRoutes, type Dispatch } from "./fast-routes.js";
import { drfPolicy } from "./policy.js";
import { RESERVED } from "./request.js";
import { chargeUnread, RateLimits } from "../../http/rate-limits.js";
import { chargeRefused, chargeRequest } from "./rate-limit.js";
import type { Ctx, Drf, DrfServices, View } from "./context.js";
import { action } from "./views/action.js";
import { detail } from "./views/detail.js";
import { docs, redoc, schema } from "./views/documents.js";
import { filtersetLookups } from "./views/filterset-lookups.js";
import { graphql } from "./views/graphql.js";
import { list } from "./views/list.js";
import { listing } from "./views/listing.js";
import { notes } from "./views/notes.js";
import { appRoot, root } from "./views/roots.js";
import { installedPlugins, plugins } from "./views/plugins.js";
import { enabledPlugins } from "../../plugins.js";
import { signIn, signOut } from "./views/session.js";
import { settings } from "./views/settings.js";
import { status } from "./views/status.js";

/** The view of each kind of route. */
const VIEWS: Record<DrfView, View> = {
  root, "app-root": appRoot, list, detail, listing, action, notes, settings, status, docs, redoc, swagger: schema, graphql,
  login: signIn, logout: signOut, "filterset-fields": filtersetLookups, plugins, "installed-plugins": installedPlugins,
  // A list or detail path without its trailing slash (seed rule 3).
  redirect: (ctx) => ctx.res.redirect(302, slashed(ctx.req)),
};

/** The views an app's root links to. */
const APP_LISTED = new Set<DrfView>(["list", "listing", "action", "settings"]);

export interface DrfDeps {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
}

/** Where the API is mounted: its base path without the trailing slash. */
export const drfMountPath = (api: ApiDescriptor): string => api.basePath.replace(/\/$/, "");

export function drfProfile(deps: DrfDeps): Mounted {
  const { api, config } = deps;
  const { services, table } = servicesOf(deps);
  const drf: Drf = { ...services, policy: drfPolicy(services) };
  const { policy } = drf;
  const limits = RateLimits.of(deps.db, config.rateLimits);
  const router = express.Router({ strict: true, caseSensitive: true });
  const assets = mountAssets(router, table);
  const readBody = express.raw({ type: () => true, limit: config.bodyLimit });
  const dispatch = dispatcher(drf, limits);
  // Body-parser failures (oversized or unreadable bodies) are answered here, before the handler.
  const unread = async (err: unknown, req: Request, res: Response) => policy.exceptionHandler(res, await chargeUnread(limits, req, res, err));
  router.use(express.raw({ type: "multipart/form-data", limit: drf.uploadBodyLimit }));
  router.use(readBody);
  router.use(async (req, res) => {
    if (req.originalUrl.split("?")[0] === req.baseUrl) {
      const refused = await chargeUnread(limits, req, res, undefined);
      if (refused) policy.exceptionHandler(res, refused);
      else res.redirect(302, slashed(req));
      return;
    }
    await dispatch(req, res, () => {
      const params = queryParams(req);
      const match = table.match(req.path.slice(1), req.method);
      return { match, params, route: match ? `${req.baseUrl}/${match.route.path}` : null };
    });
  });
  router.use((err: unknown, req: Request, res: Response, _next: express.NextFunction) => unread(err, req, res));
  return { router, fast: fastRoutes({ table, mount: drfMountPath(api), assets, readBody, unread, dispatch }) };
}

/**
 * Answers a routed request (`routed` is called inside, where its failures are answered too):
 * negotiate, authenticate, charge the rate limit, run the route's view.
 */
function dispatcher(drf: Drf, limits: RateLimits | undefined): Dispatch {
  const { api, config, policy } = drf;
  return async (req, res, routed) => {
    let ctx: Ctx | undefined;
    try {
      const { match, params, route, fast } = routed();
      publish("http.routed", { res, api: api.name, route, fast });
      const { version, renderer } = policy.negotiator(req, params, match);
      res.set("API-Version", version);
      res.set("Vary", "Accept");
      const { identity, session } = await policy.authenticators(req, res, match).catch(async (err: unknown) => {
        if (limits) await chargeRefused(limits, req, res);
        throw err;
      });
      if (limits) await chargeRequest(drf, limits, req, res, match, params, identity);
      if (!match) throw notFound();
      ctx = { req, res, drf, match, version, renderer, identity, apiUrl: `${origin(req, config.publicUrl)}${api.basePath}`, params, session };
      await VIEWS[match.route.view](ctx);
    } catch (err) {
      policy.exceptionHandler(res, await chargeUnread(limits, req, res, err), ctx);
    }
  };
}

/** The static files the pages load (Swagger UI's, ReDoc's, the browsable view's and GraphiQL's); gives the paths below the API they take. */
function mountAssets(router: Router, table: RouteTable): string[] {
  const swaggerAssets = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const browsableAssets = fileURLToPath(new URL("../../../templates/static/", import.meta.url));
  const [docsAssets, redocAssetsAt] = ["docs/static", "redoc/static"];
  router.use(`/${docsAssets}`, express.static(browsableAssets, { index: false }), express.static(swaggerAssets, { index: false }));
  router.use(`/${redocAssetsAt}`, redocAssets());
  const graphqlRoute = table.routes.find((r) => r.view === "graphql");
  return [docsAssets, redocAssetsAt, ...(graphqlRoute ? [serveGraphiqlAssets(router, graphqlRoute.path)] : [])];
}

/** The API's services and its route table, built once. */
function servicesOf({ api, db, config, identities }: DrfDeps): { services: DrfServices; table: RouteTable } {
  const engine = new Engine(api, db);
  const { index, store, operations, permissions } = engine;
  const settings = api.settings;
  const exports = exportTemplates(api, index);
  const tokenModel = api.auth?.tokens ? index.model(api.auth.tokens) : undefined;
  const userModel = api.auth ? index.model(api.auth.users) : undefined;
  const exemptView = viewExempt(index);
  // This instance's own changes to users and tokens count at once, not after the trust period.
  store.onWrite((m) => {
    if (m === tokenModel || m === userModel) identities?.forget();
  });

  const sessions = identities && tokenModel
    ? { db, identities, tokens: new Tokens(index, store, tokenModel), operations, basePath: api.basePath, apiTitle: api.title }
    : undefined;
  const enabled = enabledPlugins(api, config.plugins);
  const hidden = new Set(api.models.filter((m) => m.plugin && !enabled.some((p) => p.name === m.plugin!.name)).map((m) => m.key));
  const graphql = api.graphqlFile ? { index, hidden } : undefined;
  // Routes whose view has what it needs: sign-in needs identities, GraphQL its schema; an app's, the app enabled.
  const served = (r: DrfRoute) => (r.plugin !== undefined ? enabled.some((p) => p.name === r.plugin)
    : r.view === "login" || r.view === "logout" ? !!sessions : r.view === "graphql" ? !!graphql : true);
  const table = new RouteTable((api.drfRoutes ?? []).filter(served));
  const services: DrfServices = {
    api, db, config, identities, engine, index, store, operations, permissions, exports, tokenModel, userModel, exemptView, graphql, sessions,
    allocations: new Allocations(operations, store),
    filters: new FilterCompiler(index),
    providers: dynamicFilters(index),
    strict: settings.STRICT_FILTERING !== false,
    // `export` names a template rather than a filter where the api has export templates.
    reserved: exports ? new Set([...RESERVED, EXPORT_PARAM]) : RESERVED,
    settingsColumn: api.auth?.settings && userModel ? index.column(userModel, api.auth.settings) : undefined,
    appRoutes: appRoutes(table),
    plugins: enabled,
    // Uploads (models with image fields) come as multipart bodies, which may carry a whole file.
    uploadBodyLimit: config.uploadLimit + 64 * 1024,
  };
  return { services, table };
}

/** What each app's root lists (an app's own, `plugins/bgp/`, too): the routes one segment below it. */
function appRoutes(table: RouteTable): Map<string, string[]> {
  const roots = table.routes.filter((r) => r.view === "app-root").map((r) => r.app!);
  return new Map(roots.map((app) => [app, table.routes.flatMap((r) => {
    if (!r.path.startsWith(`${app}/`) || r.params.length || !APP_LISTED.has(r.view)) return [];
    const [name, end, ...rest] = r.path.slice(app.length + 1).split("/");
    return end === "" && !rest.length ? [name] : [];
  }).sort()]));
}
