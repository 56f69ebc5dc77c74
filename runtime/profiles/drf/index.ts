// The DRF-style profile: serves an API descriptor the way Django REST framework serves a
// Nautobot/NetBox-like API. A request goes negotiate → authenticate → route → permission →
// filter/validate → store → render, and every failure becomes a DRF-shaped error. It knows
// models only through descriptors.
import express, { type Request, type Response, type Router } from "express";
import type { Knex } from "knex";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { listServedBy, type ActionEvent, type ActionPage, type ApiDescriptor, type ModelDescriptor } from "../../descriptor.js";
import type { Config } from "../../config.js";
import { FilterCompiler, type FilterPlan } from "../../query/filters.js";
import { dynamicFilters } from "../../features/index.js";
import { describeCustomFields } from "../../features/custom-fields/options.js";
import { Answer, HttpError, ValidationError, forbidden, notFound, type FieldErrors } from "../../errors.js";
import type { Identities, Identity } from "../../auth/identities.js";
import { contentType, origin, queryParams, slashed } from "../../http/request.js";
import { BodyProblem, parseJson } from "../../http/body.js";
import { parseMultipart, Upload } from "../../http/multipart.js";
import { reportFailure } from "../../http/failures.js";
import { identified } from "../../http/request-log.js";
import { bulkIds, expectObject, notAnObject, requireAll } from "./bulk.js";
import { cspNonce } from "../../http/security.js";
import { templates } from "../../http/templates.js";
import { negotiate, type ExtraRenderers, type Renderer } from "./versioning.js";
import { filterDomElement, filtersetQuery, lookupChoices } from "./filterset-fields.js";
import { parseAccept } from "../../http/request.js";
import { stringify as toYaml } from "yaml";
import { cursorLinks, decodeCursor, pageLinks, pageParams } from "./pagination.js";
import { servedDocument } from "./documents.js";
import { notesOf } from "../../features/notes/index.js";
import { EXPORT_PARAM, exportTemplates } from "../../features/export-templates/index.js";
import { authenticate } from "./authentication.js";
import { describeModel } from "./metadata.js";
import { csrfToken, login, loginPage, logout, sessionFor, type SessionDeps } from "./browser-session.js";
import { browsablePage, type BrowsableView, type FieldInfo } from "./browsable.js";
import { Tokens } from "../../auth/tokens.js";
import type { Actor } from "../../operations/index.js";
import { Engine } from "../../engine.js";
import { Allocations } from "../../operations/allocations.js";
import { requestId } from "../../http/failures.js";
import { actionOf, type Grants } from "../../features/permissions/index.js";
import type { Condition } from "../../features/permissions/constraints.js";
import { deepmerge, SETTINGS_ROUTE } from "./user-settings.js";
import { wordErrors, wordProblem } from "./wording.js";
import { answerGraphql, GRAPHQL_ROUTE, requesterOf, serveGraphiqlAssets, type GraphqlDeps } from "./graphql.js";

/** The route below an object with notes (Nautobot's NotesViewSetMixin). */
const NOTES_ROUTE = "notes";
/** Query parameters that are never filters. */
const RESERVED = new Set(["api_version", "brief", "format", "include", "limit", "offset", "exclude", "cursor"]);
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The OpenAPI document's media types (drf-spectacular's renderers): YAML ones, then JSON ones. */
const YAML_TYPES = ["application/vnd.oai.openapi", "application/yaml"];
const SCHEMA_TYPES = [...YAML_TYPES, "application/vnd.oai.openapi+json", "application/json"];
/** What the document's paths render besides JSON, for negotiation. */
const SCHEMA_RENDERERS: Record<string, ExtraRenderers> = {
  "/swagger/": { types: SCHEMA_TYPES, formats: ["yaml"] },
  "/swagger.yaml": { types: SCHEMA_TYPES, formats: ["yaml"] },
  "/swagger.json": { types: SCHEMA_TYPES, formats: [] },
};

/**
 * The documents' texts, each rendered once: a document never changes while the process runs,
 * and rendering one takes some 60 ms (JSON) to 700 ms (YAML) of the event loop.
 */
const renderedDocuments = new WeakMap<object, { json?: string; yaml?: string }>();
function renderedDocument(document: object, as: "json" | "yaml"): string {
  let texts = renderedDocuments.get(document);
  if (!texts) renderedDocuments.set(document, (texts = {}));
  return (texts[as] ??= as === "yaml" ? toYaml(document, { aliasDuplicateObjects: false }) : JSON.stringify(document));
}

/** DRF's refusal of an anonymous request that needs a user. */
const unauthenticated = () => new HttpError(403, "Authentication credentials were not provided.", "forbidden");

interface Ctx {
  req: Request;
  res: Response;
  version: string;
  renderer: Renderer;
  identity: Identity | null;
  apiUrl: string;
  params: Map<string, string[]>;
  /** The requester's object permissions, once a route asked for them. */
  grants?: Grants;
  /** The browser session the request acts with, if any. */
  session?: string;
  /** What the browsable view draws its forms and filters from. */
  view?: BrowsableView;
}

export interface DrfDeps {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
}

export function drfProfile({ api, db, config, identities }: DrfDeps): Router {
  const engine = new Engine(api, db);
  const { index, store, operations, permissions } = engine;
  const allocations = new Allocations(operations, store);
  const filters = new FilterCompiler(index);
  const providers = dynamicFilters(index);
  const settings = api.settings;
  const strict = settings.STRICT_FILTERING !== false;
  const exports = exportTemplates(api, index);
  // `export` names a template rather than a filter where the api has export templates.
  const reserved = exports ? new Set([...RESERVED, EXPORT_PARAM]) : RESERVED;
  const exempt = new Set((settings.EXEMPT_VIEW_PERMISSIONS as string[] | undefined) ?? []);
  const page = {
    defaultLimit: Number(settings.PAGINATE_COUNT ?? 50),
    maxLimit: settings.MAX_PAGE_SIZE ? Number(settings.MAX_PAGE_SIZE) : null,
  };
  const tokenModel = api.auth?.tokens ? index.model(api.auth.tokens) : undefined;
  const userModel = api.auth ? index.model(api.auth.users) : undefined;
  const settingsColumn = api.auth?.settings && userModel ? index.column(userModel, api.auth.settings) : undefined;
  // Models whose view `EXEMPT_VIEW_PERMISSIONS: ["*"]` never exempts (Nautobot's EXEMPT_EXCLUDE_MODELS).
  const neverExempt = new Set([userModel?.key, api.permissions?.objectPermissions, api.permissions?.groups]);
  const exemptView = (m: ModelDescriptor) => exempt.has(m.key) || (exempt.has("*") && !neverExempt.has(m.key));
  // This instance's own changes to users and tokens count at once, not after the trust period.
  store.onWrite((m) => {
    if (m === tokenModel || m === userModel) identities?.forget();
  });
  const graphql: GraphqlDeps | undefined = api.graphql ? { db, index, sdl: api.graphql, permissions, exemptView, userModel } : undefined;
  const swaggerAssets = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const browsableAssets = fileURLToPath(new URL("../../../templates/static/", import.meta.url));
  const redocAssets = `${dirname(createRequire(import.meta.url).resolve("redoc/package.json"))}/bundles`;

  const sessions: SessionDeps | undefined = identities && tokenModel
    ? { db, identities, tokens: new Tokens(index, store, tokenModel), basePath: api.basePath, apiTitle: api.title }
    : undefined;
  const isLogout = (req: Request) => req.method === "POST" && req.path === "/logout/";
  const nextParam = (ctx: Ctx) => {
    const next = ctx.params.get("next")?.at(-1) ?? "";
    return next.startsWith("/") && !next.startsWith("//") ? next : api.basePath;
  };

  const router = express.Router({ strict: true, caseSensitive: true });
  router.use("/docs/static", express.static(browsableAssets, { index: false }), express.static(swaggerAssets, { index: false }));
  router.use("/redoc/static", express.static(redocAssets, { index: false }));
  if (graphql) serveGraphiqlAssets(router);
  // Uploads (models with image fields) come as multipart bodies, which may carry a whole file.
  const uploadBodyLimit = config.uploadLimit + 64 * 1024;
  router.use(express.raw({ type: "multipart/form-data", limit: uploadBodyLimit }));
  router.use(express.raw({ type: () => true, limit: config.bodyLimit }));
  router.use(async (req, res) => {
    let ctx: Ctx | undefined;
    if (req.originalUrl.split("?")[0] === req.baseUrl) {
      res.redirect(302, slashed(req));
      return;
    }
    try {
      const params = queryParams(req);
      const { version, renderer } = negotiate(req.get("accept"), params.get("api_version")?.at(-1), params.get("format")?.at(-1), api.versions, SCHEMA_RENDERERS[req.path]);
      res.set("API-Version", version);
      res.set("Vary", "Accept");
      const segments = req.path.split("/").slice(1);
      const tokenProvisioning = !!tokenModel && req.method === "POST" && req.path === `/${tokenModel.app}/${tokenModel.route}/`;
      // A GraphQL POST only reads, and a page elsewhere cannot send its JSON without a preflight: GraphiQL may use the session.
      const graphqlPost = !!graphql && req.method === "POST" && req.path === `/${GRAPHQL_ROUTE}/`;
      const session = sessionFor(req, SAFE.has(req.method) || isLogout(req) || graphqlPost);
      const identity = await authenticate(db, identities, req.get("authorization"), tokenProvisioning, session, { address: req.ip, limits: config });
      identified(res, identity?.username);
      ctx = { req, res, version, renderer, identity, apiUrl: `${origin(req, config.publicUrl)}${api.basePath}`, params, session: req.get("authorization") ? undefined : session };
      await route(ctx, segments);
    } catch (err) {
      sendError(res, err, ctx);
    }
  });
  // Body-parser failures (oversized or unreadable bodies) arrive here, before the handler.
  router.use((err: unknown, _req: Request, res: Response, _next: express.NextFunction) => sendError(res, err));
  return router;

  async function route(ctx: Ctx, seg: string[]): Promise<void> {
    const { req } = ctx;
    // seg is the path after the base path split on "/": "" is the root, a trailing "" marks a slash.
    if (seg.length === 1 && seg[0] === "") return only(ctx, ["GET"], () => send(ctx, 200, apiRoot(ctx)));
    if (seg.length === 2 && seg[1] === "") {
      if (sessions && seg[0] === "login") {
        return only(ctx, ["POST"], () => (req.method === "POST" ? login(req, ctx.res, sessions, config) : loginPage(ctx.res, sessions, nextParam(ctx))));
      }
      if (sessions && seg[0] === "logout") {
        // POST only: a link or image elsewhere must not be able to log a browser out.
        ctx.res.set("Allow", "POST, OPTIONS");
        if (req.method !== "POST") throw new HttpError(405, `Method "${req.method}" not allowed.`, "method_not_allowed");
        return logout(req, ctx.res, sessions);
      }
      if (graphql && seg[0] === GRAPHQL_ROUTE) return graphqlRoute(ctx, graphql);
      if (seg[0] === "status") return only(ctx, ["GET"], () => status(ctx));
      if (seg[0] === "docs") return only(ctx, ["GET"], () => docs(ctx));
      if (seg[0] === "redoc") return only(ctx, ["GET"], () => redoc(ctx));
      if (seg[0] === "swagger") return only(ctx, ["GET"], () => schema(ctx, { yaml: true, json: true }));
      if (api.apps.includes(seg[0])) return only(ctx, ["GET"], () => send(ctx, 200, appRoot(ctx, seg[0])));
    }
    if (seg.length === 1 && seg[0] === "swagger.json") return only(ctx, ["GET"], () => schema(ctx, { yaml: false, json: true }));
    if (seg.length === 1 && seg[0] === "swagger.yaml") return only(ctx, ["GET"], () => schema(ctx, { yaml: true, json: false }));
    if (seg.length === 4 && seg[0] === "core" && seg[1] === "filterset-fields" && seg[3] === "") {
      if (seg[2] === "lookup-choices") return only(ctx, ["GET"], () => filtersetLookups(ctx));
      if (seg[2] === "lookup-value-dom-element") return only(ctx, ["GET"], () => filtersetDomElement(ctx));
    }
    const listing = seg.length === 3 && seg[2] === "" ? index.listings.get(`${seg[0]}/${seg[1]}`) : undefined;
    if (listing) return listingRoute(ctx, listing);
    if (settingsColumn && seg.length === 3 && seg[0] === userModel!.app && seg[1] === SETTINGS_ROUTE && seg[2] === "") return settingsRoute(ctx);
    const appAction = seg.length === 3 && seg[2] === "" ? index.appActions.get(`${seg[0]}/${seg[1]}`) : undefined;
    if (appAction) return actionRoute(ctx, appAction.model, null, appAction.name);
    const m = seg.length >= 2 ? index.byRoute.get(`${seg[0]}/${seg[1]}`) : undefined;
    if (m && seg.length === 3 && seg[2] === "") return listRoute(ctx, m);
    if (m && seg.length === 4 && seg[3] === "") return detailRoute(ctx, m, seg[2]);
    if (m && seg.length === 5 && seg[4] === "" && m.actions?.some((a) => a.name === seg[3] && !a.onApp && !a.path && !a.servesList)) return actionRoute(ctx, m, seg[2], seg[3]);
    const at = m && seg.length > 5 && seg.at(-1) === "" ? pathAction(m, seg.slice(2, -1)) : undefined;
    if (at) return actionRoute(ctx, m!, null, at.name, at.path);
    if (m && seg.length === 5 && seg[3] === NOTES_ROUTE && seg[4] === "" && notesOf(index, m)) return notesRoute(ctx, m, seg[2]);
    // A list or detail path without its trailing slash (seed rule 3).
    if (m && (seg.length === 2 || (seg.length === 3 && seg[2] !== "" && req.method !== "POST"))) {
      ctx.res.redirect(302, slashed(req));
      return;
    }
    throw notFound();
  }

  /** The action of `m` served at these path segments, with what its placeholders took. */
  function pathAction(m: ModelDescriptor, segments: string[]): { name: string; path: Record<string, string> } | undefined {
    for (const a of m.actions ?? []) {
      if (a.path?.length !== segments.length) continue;
      const path: Record<string, string> = {};
      const fits = a.path.every((part, i) => {
        const placeholder = /^\{(.+)\}$/.exec(part);
        if (placeholder) path[placeholder[1]] = decodeURIComponent(segments[i]);
        return placeholder ? segments[i] !== "" : part === segments[i];
      });
      if (fits) return { name: a.name, path };
    }
    return undefined;
  }

  function only(ctx: Ctx, methods: string[], run: () => Promise<void> | void): Promise<void> | void {
    const allowed = [...methods, "HEAD", "OPTIONS"];
    ctx.res.set("Allow", allowed.join(", "));
    if (ctx.req.method === "OPTIONS") return send(ctx, 200, { name: "", description: "", renders: ["application/json", "text/html"], parses: ["application/json"] });
    if (ctx.req.method !== "GET" && ctx.req.method !== "HEAD" && !methods.includes(ctx.req.method)) {
      throw new HttpError(405, `Method "${ctx.req.method}" not allowed.`, "method_not_allowed");
    }
    return run();
  }

  /** GraphQL (graphql.ts): POST, as Nautobot's API view, the body JSON or the query itself; GraphiQL for a browser's GET. */
  async function graphqlRoute(ctx: Ctx, deps: GraphqlDeps): Promise<void> {
    ctx.res.set("Allow", "POST, OPTIONS");
    if (ctx.req.method === "GET" && ctx.renderer === "html") {
      ctx.res.type("html").send(templates.graphiql({
        title: api.title, assets: `${api.basePath}${GRAPHQL_ROUTE}/static`, endpoint: JSON.stringify(`${api.basePath}${GRAPHQL_ROUTE}/`), nonce: cspNonce(ctx.res),
      }));
      return;
    }
    if (ctx.req.method !== "POST") throw new HttpError(405, `Method "${ctx.req.method}" not allowed.`, "method_not_allowed");
    const raw = Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0);
    const type = contentType(ctx.req);
    const body = type === "application/graphql" ? { query: raw.toString("utf8") } : type === "application/json" ? readJson(ctx) : {};
    const grants = ctx.identity && permissions ? await grantsOf(ctx) : undefined;
    const answer = await answerGraphql(deps, (body ?? {}) as Record<string, unknown>, requesterOf(deps, ctx.identity, grants, { version: ctx.version, apiUrl: ctx.apiUrl }));
    ctx.res.status(answer.status).json(answer.body);
  }

  function apiRoot(ctx: Ctx): Record<string, string> {
    const links = [...api.apps, ...api.rootLinks].sort();
    return Object.fromEntries(links.map((a) => [a, `${ctx.apiUrl}${a}/`]));
  }

  function appRoot(ctx: Ctx, app: string): Record<string, string> {
    const routes = [...api.models.filter((m) => m.app === app).flatMap((m) => [
      m.route, ...(m.listings ?? []).map((l) => l.route), ...(m.actions ?? []).filter((a) => a.onApp).map((a) => a.name),
    ]), ...(settingsColumn && app === userModel!.app ? [SETTINGS_ROUTE] : [])].sort();
    return Object.fromEntries(routes.map((r) => [r, `${ctx.apiUrl}${app}/${r}/`]));
  }

  async function status(ctx: Ctx): Promise<void> {
    if (!ctx.identity) throw unauthenticated();
    const dbVersion = (await db.raw("SHOW server_version")).rows[0].server_version;
    // The original's keys first, in its order; workers are Nautobot's background queues, of which this server runs none.
    const claimed = Object.fromEntries(Object.entries({
      ...(settings.STATUS as Record<string, string> | undefined),
      "installed-apps": Object.fromEntries(api.apps.map((a) => [a, null])),
      plugins: {},
    }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    send(ctx, 200, {
      ...claimed,
      "rq-workers-running": 0,
      "celery-workers-running": 0,
      "armature-version": "0.1.0",
      "api-versions": api.versions.supported,
      "node-version": process.version,
      "database-version": dbVersion,
    });
  }

  function docs(ctx: Ctx): void {
    // The document itself, of the version negotiated here: a redirect to swagger.json (as
    // Nautobot answers) would drop `api_version`, and clients such as pynautobot's openapi()
    // expect JSON from this URL.
    if (ctx.params.get("format")?.at(-1) === "openapi") {
      const document = servedDocument(api, ctx.version, ctx.params.get("form")?.at(-1));
      ctx.res.status(200).type("json").send(renderedDocument(document, "json"));
      return;
    }
    const url = `${api.basePath}swagger.json?api_version=${encodeURIComponent(ctx.version)}`;
    ctx.res.type("html").send(templates.swagger({ title: api.title, assets: `${api.basePath}docs/static`, schemaUrl: JSON.stringify(url), nonce: cspNonce(ctx.res) }));
  }

  function redoc(ctx: Ctx): void {
    const url = `${api.basePath}swagger/?api_version=${encodeURIComponent(ctx.version)}`;
    ctx.res.type("html").send(templates.redoc({ title: api.title, assets: `${api.basePath}redoc/static`, schemaUrl: JSON.stringify(url), nonce: cspNonce(ctx.res) }));
  }

  /**
   * The OpenAPI document as drf-spectacular's views render it: `swagger/` in YAML unless JSON is
   * asked for (`?format=json` or a JSON media type), `swagger.yaml` only in YAML, `swagger.json` only in JSON.
   */
  function schema(ctx: Ctx, offers: { yaml: boolean; json: boolean }): void {
    const format = ctx.params.get("format")?.at(-1) || undefined;
    // DRF answers a format none of the view's renderers has with 404.
    if (format !== undefined && !((format === "yaml" && offers.yaml) || (format === "json" && offers.json))) throw notFound();
    const accepted = parseAccept(ctx.req.get("accept")).find((t) => t.q > 0 && (SCHEMA_TYPES.includes(t.type) || ["*/*", "application/*", "text/html"].includes(t.type)));
    const type = format === "json" ? "application/vnd.oai.openapi+json"
      : format === "yaml" ? "application/vnd.oai.openapi"
      : accepted && SCHEMA_TYPES.includes(accepted.type) ? accepted.type
      : offers.yaml ? "application/vnd.oai.openapi" : "application/vnd.oai.openapi+json";
    const asYaml = YAML_TYPES.includes(type);
    if (!(asYaml ? offers.yaml : offers.json)) throw new HttpError(406, "Could not satisfy the request Accept header.", "not_acceptable");
    const document = servedDocument(api, ctx.version, ctx.params.get("form")?.at(-1));
    ctx.res.status(200).type(type).send(renderedDocument(document, asYaml ? "yaml" : "json"));
  }

  function filtersetLookups(ctx: Ctx): void {
    if (!ctx.identity) throw unauthenticated();
    const { model, field } = filtersetQuery(ctx.params, index.byKey);
    const results = lookupChoices(model, field);
    send(ctx, 200, { count: results.length, next: null, previous: null, results });
  }

  function filtersetDomElement(ctx: Ctx): void {
    if (!ctx.identity) throw unauthenticated();
    const { model, field } = filtersetQuery(ctx.params, index.byKey);
    send(ctx, 200, { dom_element: filterDomElement(model, field, (key) => index.byKey.get(key), api.basePath) });
  }

  /**
   * Who may do what: anonymous reads only where exempt; writes need a write-enabled token; with
   * object permissions, the requester must hold the method's action on the model (superusers
   * hold every one; an exempt view needs none), else only superusers touch users.
   */
  async function authorize(ctx: Ctx, m: ModelDescriptor, action = actionOf(ctx.req.method)): Promise<void> {
    const method = ctx.req.method;
    if (!ctx.identity) {
      const readable = (method === "GET" || method === "HEAD") && exemptView(m);
      if (!readable) throw unauthenticated();
      return;
    }
    if (!SAFE.has(method) && readOnly(ctx)) throw forbidden();
    if (!permissions) {
      if (m === userModel && !ctx.identity.isSuperuser) throw forbidden();
      return;
    }
    if (action === null || (action === "view" && exemptView(m))) return;
    if (!permissions.holds(await grantsOf(ctx), m, action)) throw forbidden();
  }

  async function grantsOf(ctx: Ctx): Promise<Grants> {
    ctx.grants ??= await permissions!.grants(db, ctx.identity!.userId, ctx.identity!.isSuperuser);
    return ctx.grants;
  }

  /** The condition on rows of `m` aliased `alias` that the requester's `action` constraints set (null: every row). */
  function condition(ctx: Ctx, m: ModelDescriptor, action: string | null, alias: string): Condition | null {
    if (!permissions || !ctx.grants || action === null || (action === "view" && exemptView(m))) return null;
    return permissions.condition(ctx.grants, m, action, alias);
  }

  /** The condition on rows `t0` of `m` that the requester's `action` constraints set (none: every row). */
  function permitted(ctx: Ctx, m: ModelDescriptor, action: string | null): ((qb: Knex.QueryBuilder) => void) | undefined {
    const cond = condition(ctx, m, action, "t0");
    return cond ? (qb) => { qb.whereRaw(cond.sql, cond.bindings as Knex.RawBinding[]); } : undefined;
  }

  /** `where` narrowed to the rows the requester may `action`. */
  function within(ctx: Ctx, m: ModelDescriptor, where: FilterPlan, action = actionOf(ctx.req.method)): FilterPlan {
    const narrow = permitted(ctx, m, action);
    return narrow ? { ...where, apply: (qb: Knex.QueryBuilder) => { where.apply(qb); narrow(qb); } } : where;
  }

  /** Whether the object `id` of `m` exists and the requester may `action` it (view it, by default). */
  async function visible(ctx: Ctx, m: ModelDescriptor, id: string, action = "view"): Promise<boolean> {
    return store.isKey(m, id) && (await store.existing(db, m, [id], ctx.identity?.userId, permitted(ctx, m, action))).length > 0;
  }

  /** The requester as the actor of an operation through `view` of `m` (Nautobot's view name, `dcim-api:site-list`). */
  function actor(ctx: Ctx, m: ModelDescriptor, view: string, subject = m): Actor {
    return {
      userId: ctx.identity?.userId ?? null, username: ctx.identity?.username ?? null, requestId: requestId(ctx.res),
      context: "api", contextDetail: `${m.app}-api:${m.key.split(".")[1]}-${view}`, grants: ctx.grants, subject: subject.key,
    };
  }

  /**
   * Whether the requester holds only a read-only token. A browser session's token is one (so
   * its key in an Authorization header never writes, and no tool hands it out as a writing
   * token); the session itself writes, with its CSRF token.
   */
  function readOnly(ctx: Ctx): boolean {
    return !!ctx.identity?.token && !ctx.identity.token.writeEnabled && !ctx.session;
  }

  function readOpts(ctx: Ctx, brief = false) {
    return {
      shape: brief ? "brief" as const : "full" as const,
      version: ctx.version,
      exclude: (ctx.params.get("exclude") ?? []).flatMap((v) => v.split(",")),
      // Opt-in fields answer a GET that names them, and every write.
      include: ctx.req.method === "GET" || ctx.req.method === "HEAD" ? (ctx.params.get("include") ?? []).flatMap((v) => v.split(",")) : "all" as const,
      ctx: { apiUrl: ctx.apiUrl },
      userId: ctx.identity?.userId,
    };
  }

  function isBrief(ctx: Ctx): boolean {
    return ctx.req.method === "GET" && (ctx.params.get("brief") ?? []).some((v) => v !== "");
  }

  /** The request's filters, planned without the database; checks left to the read that uses them. */
  async function filterFor(ctx: Ctx, m: ModelDescriptor): Promise<FilterPlan> {
    const names = [...ctx.params.keys()];
    const dynamic = (await Promise.all(providers.map((load) => load(db, m, names, { strict })))).filter((d) => d !== null);
    const { errors, plan } = filters.compile(m, ctx.params, { strict, reserved, dynamic });
    // One answer names every bad parameter, so the data's verdicts join the planning errors.
    if (Object.keys(errors).length) throw new ValidationError((await store.filterErrors(db, plan, errors))!);
    return plan;
  }

  /** Runs the plan's checks now, for a path whose own statement cannot carry them. */
  async function confirm(plan: FilterPlan): Promise<void> {
    const errors = plan.checks.length ? await store.filterErrors(db, plan, {}) : null;
    if (errors) throw new ValidationError(errors);
  }

  /**
   * What list and detail endpoints share: the Allow header, OPTIONS (with the write actions
   * this requester may use among `actions`), 405, then authorization. Gives the method to
   * serve (HEAD served as GET), or null when OPTIONS was answered.
   */
  async function dispatch(ctx: Ctx, m: ModelDescriptor, methods: string[], actions: string[]): Promise<string | null> {
    ctx.res.set("Allow", [...methods, "HEAD", "OPTIONS"].join(", "));
    const method = ctx.req.method === "HEAD" ? "GET" : ctx.req.method;
    if (method === "OPTIONS") {
      if (!ctx.identity) throw unauthenticated();
      const mayWrite = !readOnly(ctx) && (permissions ? true : !(m === userModel && !ctx.identity.isSuperuser));
      const grants = permissions && await grantsOf(ctx);
      const allowed = methods.filter((x) => actions.includes(x) && (!grants || permissions!.holds(grants, m, actionOf(x)!)));
      send(ctx, 200, await describeCustomFields(db, m, ctx.version, api.versions.supported, await describeModel(db, index, m, ctx.version, mayWrite ? allowed : [])));
      return null;
    }
    if (!methods.includes(method)) throw new HttpError(405, `Method "${ctx.req.method}" not allowed.`, "method_not_allowed");
    await authorize(ctx, m);
    // The browsable view's HTML forms are built from the same field metadata OPTIONS gives.
    if (ctx.renderer === "html" && ctx.view && method === "GET" && ctx.identity) {
      ctx.view.fields = ((await describeModel(db, index, m, ctx.version, ["POST"])).actions as Record<string, Record<string, FieldInfo>>).POST;
    }
    return method;
  }

  /** A model's further list route: the rows whose column is set, with its own few filters. */
  async function listingRoute(ctx: Ctx, listing: { model: ModelDescriptor; column: string; filters: Set<string> }): Promise<void> {
    const m = listing.model;
    return only(ctx, ["GET"], async () => {
      await authorize(ctx, m);
      const { errors, plan } = filters.compile(m, ctx.params, { strict, reserved: RESERVED, only: listing.filters });
      if (Object.keys(errors).length) throw new ValidationError((await store.filterErrors(db, plan, errors))!);
      const where = within(ctx, m, { ...plan, apply: (qb: Knex.QueryBuilder) => { plan.apply(qb); qb.whereNotNull(`t0.${listing.column}`); } });
      const { limit, offset } = pageParams(ctx.params.get("limit")?.at(-1), ctx.params.get("offset")?.at(-1), page);
      const { count, results } = await store.list(db, m, where, { limit, offset }, readOpts(ctx));
      const links = pageLinks(new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`), limit, offset, count);
      send(ctx, 200, { count, next: links.next, previous: links.previous, results });
    });
  }

  async function listRoute(ctx: Ctx, m: ModelDescriptor): Promise<void> {
    const ops = new Set(m.operations);
    const methods = [...(ops.has("list") ? ["GET"] : []), ...(ops.has("create") ? ["POST"] : []),
      ...(ops.has("update") ? ["PUT", "PATCH"] : []), ...(ops.has("delete") ? ["DELETE"] : [])];
    ctx.view = { model: m, kind: "list" };
    const method = await dispatch(ctx, m, methods, ["POST", "PUT"]);
    if (!method) return;
    const serving = method === "GET" ? listServedBy(m, ctx.version, api.versions.supported) : undefined;
    if (serving) return answerAction(ctx, m, serving.name, null, {});
    if (method === "GET") {
      const where = within(ctx, m, await filterFor(ctx, m));
      const exportName = exports && ctx.params.get(EXPORT_PARAM)?.at(-1);
      if (exports && exportName !== undefined) {
        const file = await exports.render(db, store, m, exportName, where, readOpts(ctx));
        // As Django's HttpResponse sends them: the template's type as given, no charset added.
        ctx.res.status(200).setHeader("Content-Type", file.mimeType);
        ctx.res.setHeader("Content-Disposition", `attachment; filename="${file.filename}"`);
        ctx.res.end(file.body);
        return;
      }
      const { limit, offset } = pageParams(ctx.params.get("limit")?.at(-1), ctx.params.get("offset")?.at(-1), page);
      const url = new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`);
      const rawCursor = ctx.params.get("cursor")?.at(-1);
      if (rawCursor !== undefined) {
        const after = decodeCursor(rawCursor);
        // DRF's CursorPagination answers a cursor it cannot read so.
        if (!after) throw new HttpError(404, { code: "invalid_cursor" });
        const { count, results, cursor } = await store.list(db, m, where, { limit, offset: 0, after }, readOpts(ctx, isBrief(ctx)));
        const links = cursorLinks(url, limit, cursor);
        return send(ctx, 200, { count, next: links.next, previous: links.previous, results });
      }
      const { count, results } = await store.list(db, m, where, { limit, offset }, readOpts(ctx, isBrief(ctx)));
      const links = pageLinks(url, limit, offset, count);
      return send(ctx, 200, { count, next: links.next, previous: links.previous, results });
    }
    const body = await readBody(ctx, m);
    const opts = { version: ctx.version, userId: ctx.identity?.userId };
    if (method === "POST") {
      const many = Array.isArray(body);
      const ids = await operations.run(actor(ctx, m, "list"), async (trx) => (many
        ? store.createMany(trx, m, body, opts)
        : [await store.create(trx, m, body, { ...opts, partial: false })]));
      const objects = await store.fetch(db, m, ids, readOpts(ctx));
      if (!many) ctx.res.set("Location", String(objects[0].url));
      return send(ctx, 201, many ? objects : objects[0]);
    }
    const items = expectList(body);
    const wanted = bulkIds(items, index.integerKeys(m));
    const userId = ctx.identity?.userId;
    // The rows are locked before anything is written: an id deleted meanwhile is unknown, not
    // skipped, as is one the requester may not change or delete.
    const allowed = permitted(ctx, m, actionOf(method));
    const lockAll = async (trx: Knex.Transaction) => requireAll(wanted, await store.existing(trx, m, wanted, userId, allowed, true));
    if (method === "DELETE") {
      await operations.run(actor(ctx, m, "list"), async (trx) => {
        await lockAll(trx);
        await store.remove(trx, m, wanted);
      });
      ctx.res.status(204).end();
      return;
    }
    // As Nautobot's bulk update, elements are validated one by one: the first invalid one is the error.
    await operations.run(actor(ctx, m, "list"), async (trx) => {
      await lockAll(trx);
      for (const [i, item] of items.entries()) {
        const { id: _id, ...changes } = item as Record<string, unknown>;
        await store.update(trx, m, wanted[i], changes, { ...opts, partial: method === "PATCH" });
      }
    });
    return send(ctx, 200, await store.fetch(db, m, wanted, readOpts(ctx)));
  }

  /** The requester's own settings: GET reads them, PATCH merges a JSON object into them (Nautobot's `deepmerge`). */
  async function settingsRoute(ctx: Ctx): Promise<void> {
    const users = userModel!;
    const column = settingsColumn!;
    return only(ctx, ["GET", "PATCH"], async () => {
      const identity = ctx.identity;
      if (!identity) throw unauthenticated();
      const own = (q: Knex.QueryBuilder) => q.where("id", identity.userId);
      if (ctx.req.method !== "PATCH") {
        const row = await own(db(users.table)).first(column);
        return send(ctx, 200, row?.[column] ?? {});
      }
      if (readOnly(ctx)) throw forbidden();
      const body = expectObject(readJson(ctx));
      const merged = await operations.run(actor(ctx, users, SETTINGS_ROUTE), async (trx) => {
        const row = await own(trx(users.table)).forUpdate().first(column);
        const next = deepmerge((row?.[column] as Record<string, unknown> | null) ?? {}, body);
        await own(trx(users.table)).update({ [column]: JSON.stringify(next) });
        return next;
      });
      send(ctx, 200, merged);
    });
  }

  /**
   * `<detail>/notes/`, as Nautobot's NotesViewSetMixin: a GET pages through the object's notes
   * (no filters), a POST of a note's fields attaches one to it, made by the requester.
   */
  async function notesRoute(ctx: Ctx, m: ModelDescriptor, rawId: string): Promise<void> {
    const notes = notesOf(index, m)!;
    return only(ctx, ["GET", "POST"], async () => {
      await authorize(ctx, m);
      const id = rawId.toLowerCase();
      const userId = ctx.identity?.userId;
      if (!(await visible(ctx, m, id))) throw notFound();
      if (ctx.req.method === "POST") {
        const body = expectObject(readJson(ctx));
        const made = await operations.run(actor(ctx, m, "notes"), (trx) => store.create(trx, notes.model, notes.attach(body, id), { version: ctx.version, userId, partial: false }));
        return send(ctx, 201, (await store.fetch(db, notes.model, [made], readOpts(ctx)))[0]);
      }
      const { plan } = filters.compile(notes.model, new Map(), { strict, reserved: RESERVED });
      const where = { ...plan, apply: notes.of(id) };
      const { limit, offset } = pageParams(ctx.params.get("limit")?.at(-1), ctx.params.get("offset")?.at(-1), page);
      const { count, results } = await store.list(db, notes.model, where, { limit, offset }, readOpts(ctx));
      const links = pageLinks(new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`), limit, offset, count);
      send(ctx, 200, { count, next: links.next, previous: links.previous, results });
    });
  }


  /**
   * A model's action, of one object (`…/<id>/<name>/`), on its app, or at its `path`, answered
   * by its hook module: a GET, a POST (`method`), or both for one that creates objects. The
   * requester needs the action's permission (or the method's) on the model, and the object
   * must be one that permission lets them reach.
   */
  async function actionRoute(ctx: Ctx, m: ModelDescriptor, rawId: string | null, name: string, path: Record<string, string> = {}): Promise<void> {
    const action = m.actions!.find((a) => a.name === name)!;
    if (action.method === "POST" && ctx.req.method !== "POST" && ctx.req.method !== "OPTIONS") {
      ctx.res.set("Allow", "POST, OPTIONS");
      throw new HttpError(405, `Method "${ctx.req.method}" not allowed.`, "method_not_allowed");
    }
    return only(ctx, action.method === "POST" ? ["POST"] : action.creates ? ["GET", "POST"] : ["GET"], async () => {
      const made = action.creates && ctx.req.method === "POST" ? index.model(action.creates.model) : undefined;
      const permission = action.permission ?? actionOf(ctx.req.method);
      await authorize(ctx, made ?? m, permission);
      const id = rawId?.toLowerCase() ?? null;
      if (id !== null && !(await visible(ctx, m, id, made ? "view" : permission ?? "view"))) throw notFound();
      if (made) return allocate(ctx, m, name, made, actionEvent(ctx, m, name, id, path));
      return answerAction(ctx, m, name, id, path);
    });
  }

  /** What an action's hook is given (see ActionEvent). */
  function actionEvent(ctx: Ctx, m: ModelDescriptor, name: string, id: string | null, path: Record<string, string>): ActionEvent {
    const { limit } = pageParams(ctx.params.get("limit")?.at(-1), undefined, page);
    return {
      db, model: m, id, params: ctx.params, limit, version: ctx.version, path, engine, actor: actor(ctx, m, name),
      read: (refs, shape) => store.readRefs(db, refs, { ...readOpts(ctx), shape }),
      list: (lm, filter, exclude = []) => {
        const opts = readOpts(ctx);
        const paging = pageParams(ctx.params.get("limit")?.at(-1), ctx.params.get("offset")?.at(-1), page);
        return store.list(db, lm, filter, paging, { ...opts, exclude: [...opts.exclude, ...exclude] });
      },
      permitted: (pm, action, alias) => condition(ctx, pm, action, alias),
      ...(graphql ? { graphql: (request) => answerGraphql(graphql, request, requesterOf(graphql, ctx.identity, ctx.grants)) } : {}),
    };
  }

  /** Runs the hook of an action the requester may use, and sends what it answers. */
  async function answerAction(ctx: Ctx, m: ModelDescriptor, name: string, id: string | null, path: Record<string, string>): Promise<void> {
    const action = m.actions!.find((a) => a.name === name)!;
    if (permissions && ctx.identity) await grantsOf(ctx);
    const event = actionEvent(ctx, m, name, id, path);
    if (ctx.req.method === "POST" && action.multipart && contentType(ctx.req) === "multipart/form-data") event.form = await readForm(ctx);
    else if (ctx.req.method === "POST") event.body = readJson(ctx);
    const answer = await m.hooks!.actions![name](event);
    if (answer instanceof Answer) return send(ctx, answer.status, answer.body);
    const status = action.status ?? 200;
    // Nothing to say is an empty body, as DRF renders a Response without data.
    if (answer === undefined) {
      ctx.res.status(status).type("json").end();
      return;
    }
    if (!action.paginated) return send(ctx, status, answer);
    const { limit, offset } = pageParams(ctx.params.get("limit")?.at(-1), ctx.params.get("offset")?.at(-1), page);
    // A hook that chose its page (event.list) answers with it; otherwise the whole list is cut here.
    const chosen = Array.isArray(answer) ? null : answer as ActionPage;
    const count = chosen ? chosen.count : (answer as unknown[]).length;
    const results = chosen ? chosen.results : (answer as unknown[]).slice(offset, limit === null ? undefined : offset + limit);
    const links = pageLinks(new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`), limit, offset, count);
    send(ctx, status, { count, next: links.next, previous: links.previous, results });
  }

  /** A POST to an action that creates objects (operations/allocations.ts): one body or a list, all or none. */
  async function allocate(ctx: Ctx, m: ModelDescriptor, name: string, made: ModelDescriptor, event: ActionEvent): Promise<void> {
    const body = readJson(ctx);
    const many = Array.isArray(body);
    const items: unknown[] = many ? body : [body];
    // The hook meets objects only: anything else is refused as a create would refuse it.
    const shapes = items.map((i): FieldErrors => notAnObject(i) ?? {});
    if (shapes.some((x) => Object.keys(x).length)) throw new ValidationError(many ? shapes : shapes[0]);
    const opts = { version: ctx.version, userId: ctx.identity?.userId, partial: false };
    const result = await allocations.allocate({ actor: actor(ctx, m, name, made), m, name, made, event, items: items as Array<Record<string, unknown>>, many, opts });
    // DRF sends the detail with its 204; HTTP allows no body there, so only the status arrives.
    if ("shortage" in result) {
      ctx.res.status(204).end();
      return;
    }
    const objects = await store.fetch(db, made, result.ids, readOpts(ctx));
    send(ctx, 201, many ? objects : objects[0]);
  }

  async function detailRoute(ctx: Ctx, m: ModelDescriptor, rawId: string): Promise<void> {
    const ops = new Set(m.operations);
    const methods = [...(ops.has("retrieve") ? ["GET"] : []), ...(ops.has("update") ? ["PUT", "PATCH"] : []), ...(ops.has("delete") ? ["DELETE"] : [])];
    ctx.view = { model: m, kind: "detail" };
    const method = await dispatch(ctx, m, methods, ["PUT"]);
    if (!method) return;
    // As DRF's get_object, the detail lookup goes through the filter set: a bad filter is a
    // 400, and an object the filters (or the requester's constraints) exclude is not found.
    const where = within(ctx, m, await filterFor(ctx, m));
    const id = rawId.toLowerCase();
    if (!store.isKey(m, id)) {
      await confirm(where);
      throw notFound();
    }
    if (method === "GET") {
      // One statement: the read itself tells whether the object exists.
      const [obj] = await store.fetch(db, m, [id], readOpts(ctx, isBrief(ctx)), where);
      if (!obj) throw notFound();
      return send(ctx, 200, obj);
    }
    // The object is locked for the write: of parallel deletes one finds it, the others a 404.
    const userId = ctx.identity?.userId;
    await confirm(where);
    const lockOne = async (trx: Knex.Transaction) => {
      if (!(await store.existing(trx, m, [id], userId, where.apply, true)).length) throw notFound();
    };
    if (method === "DELETE") {
      await operations.run(actor(ctx, m, "detail"), async (trx) => {
        await lockOne(trx);
        await store.remove(trx, m, [id]);
      });
      ctx.res.status(204).end();
      return;
    }
    const body = await readBody(ctx, m);
    await operations.run(actor(ctx, m, "detail"), async (trx) => {
      await lockOne(trx);
      await store.update(trx, m, id, body, { version: ctx.version, userId, partial: method === "PATCH" });
    });
    const [obj] = await store.fetch(db, m, [id], readOpts(ctx));
    return send(ctx, 200, obj);
  }

  /** A multipart/form-data body's parts, as DRF's MultiPartParser reads them; a malformed one is its 400. */
  async function readParts(ctx: Ctx): Promise<Record<string, string | Upload>> {
    try {
      return await parseMultipart(Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0), ctx.req.get("content-type") ?? "");
    } catch (err) {
      if (err instanceof BodyProblem) throw new HttpError(400, `Multipart form parse error - ${err.message}`, "parse_error");
      throw err;
    }
  }

  /** An action's multipart body: its text fields and its files by field name. */
  async function readForm(ctx: Ctx): Promise<NonNullable<ActionEvent["form"]>> {
    const form: NonNullable<ActionEvent["form"]> = { fields: {}, files: {} };
    for (const [name, part] of Object.entries(await readParts(ctx))) {
      if (part instanceof Upload) form.files[name] = { filename: part.filename, content: part.data };
      else form.fields[name] = part;
    }
    return form;
  }

  /** A write's body: JSON, or, for a model with an image field, also multipart/form-data (text parts as strings, the files as uploads). */
  function readBody(ctx: Ctx, m: ModelDescriptor): Promise<unknown> | unknown {
    if (contentType(ctx.req) !== "multipart/form-data" || !m.fields.some((f) => f.kind === "imageFile")) return readJson(ctx);
    return readParts(ctx);
  }

  function readJson(ctx: Ctx): unknown {
    const type = contentType(ctx.req);
    const raw = Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0);
    // A body-less request without a content type carries no data (token provisioning by Basic).
    if (raw.length === 0 && !ctx.req.get("content-type")) return {};
    if (type !== "application/json") {
      throw new HttpError(415, `Unsupported media type "${ctx.req.get("content-type") ?? ""}" in request.`, "unsupported_media_type");
    }
    try {
      return parseJson(raw.toString("utf8"));
    } catch (err) {
      if (err instanceof BodyProblem) throw new HttpError(400, `JSON parse error - ${err.message}`, "parse_error");
      throw err;
    }
  }

  function expectList(body: unknown): unknown[] {
    if (!Array.isArray(body)) {
      throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${body === null ? "NoneType" : typeof body === "object" ? "dict" : typeof body}".`] });
    }
    return body;
  }

  function send(ctx: Ctx, statusCode: number, body: unknown): void {
    if (ctx.renderer === "html") {
      const page = browsablePage({
        index, version: ctx.version, method: ctx.req.method, url: new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`),
        status: statusCode, body, view: ctx.view, user: !!ctx.identity,
        allow: (ctx.res.get("Allow") ?? "").split(",").map((x) => x.trim()).filter(Boolean),
      });
      ctx.res.status(statusCode).type("html").send(templates.browsable({
        ...page, title: page.name || api.title, apiTitle: api.title, version: ctx.version, docsUrl: `${api.basePath}docs/`,
        user: ctx.identity?.username ?? "", logoutUrl: `${api.basePath}logout/`,
        loginUrl: `${api.basePath}login/?next=${encodeURIComponent(ctx.req.originalUrl)}`,
        method: ctx.req.method, path: ctx.req.originalUrl, status: statusCode,
        csrfToken: ctx.session ? csrfToken(ctx.session) : "", script: `${api.basePath}docs/static/browsable.js`,
      }));
      return;
    }
    ctx.res.status(statusCode).json(body);
  }

  function sendError(res: Response, err: unknown, ctx?: Ctx): void {
    const e = err as { type?: string; status?: number; message?: string };
    let statusCode: number;
    let body: unknown;
    if (err instanceof ValidationError) { statusCode = 400; body = wordErrors(err.errors); }
    else if (err instanceof Answer) { statusCode = err.status; body = err.body; }
    else if (err instanceof HttpError) { statusCode = err.status; body = { detail: err.problem ? wordProblem(err.problem) : err.message }; for (const [k, v] of Object.entries(err.headers)) res.set(k, v); }
    else if (e?.type === "entity.too.large") {
      statusCode = 413;
      const limit = contentType(res.req) === "multipart/form-data" ? `${uploadBodyLimit} bytes` : config.bodyLimit;
      body = { detail: `Request body is larger than the limit of ${limit}.` };
    }
    else if (typeof e?.status === "number" && e.status >= 400 && e.status < 500) { statusCode = e.status; body = { detail: e.message ?? "Bad request." }; }
    else {
      statusCode = 500;
      body = { detail: "Internal server error.", request_id: reportFailure(res.req, res, err) };
    }
    if (ctx) send(ctx, statusCode, body);
    else res.status(statusCode).json(body);
  }
}
