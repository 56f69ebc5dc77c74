// The WordPress-style profile: serves an API descriptor the way the WordPress REST API and
// The Events Calendar serve theirs. Mounted at the WordPress API root: the REST index at
// `/`, the API's namespace below it, application passwords at `/wp/v2/users/me/…`. A request
// goes params → identify → route → permission → archive plan or writer → the engine's
// store → shaper; every failure is a `{code, message, data}` error. Models are known only
// through their descriptors.
import express, { type Request, type Response, type Router } from "express";
import type { Knex } from "knex";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { ApiDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { Config } from "../../config.js";
import type { Identities } from "../../auth/identities.js";
import type { Fixture } from "../../fixtures.js";
import { contentType, origin, parseAccept, queryString } from "../../http/request.js";
import { cspNonce } from "../../http/security.js";
import { templates } from "../../http/templates.js";
import { reportFailure } from "../../http/failures.js";
import { identified } from "../../http/request-log.js";
import { forbidden, invalidParam, missingParams, noRoute, WpError } from "./errors.js";
import { boolParam, MAX_ID, positiveInt, requestParams, type Params } from "./params.js";
import { WpAuth, type Requester } from "./auth.js";
import { Catalog, Shaper, type Row, type Site } from "./records.js";
import { Archive, paging, type ArchivePlan } from "./archive.js";
import type { Db, ReadOptions, RowId } from "../../store.js";
import { ValidationError } from "../../errors.js";
import { lockTermName, writeTransaction, Writer } from "./writes.js";
import type { Actor } from "../../operations/index.js";
import { Engine } from "../../engine.js";
import { requestId } from "../../http/failures.js";
import { describeRoute } from "./routes.js";
import type { ProfileCommand } from "../index.js";

export interface WpDeps {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
}

interface Ctx {
  req: Request;
  res: Response;
  params: Params;
  who: Requester | null;
  site: Site;
  rootUrl: string;
}

const OVERRIDABLE = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export function wordpressProfile({ api, db, config, identities }: WpDeps): Router {
  const { index, store, operations } = new Engine(api, db);
  const cat = new Catalog(api, index);
  const tz = String(api.settings.timezone ?? "UTC");
  const ns = api.basePath.replace(/^\/|\/$/g, "");
  const auth = new WpAuth(db, identities, api.appPasswords ? cat.model(api.appPasswords) : undefined, config);
  // Asked on the writer's own connection: the transaction may hold the only one (PGlite).
  const userExists = async (conn: Knex, id: string) => !!identities && !!(await identities.byId(conn, id));
  const writer = new Writer(cat, store, tz, userExists);
  /** The requester as the actor of a write through the route of `m`. */
  const actor = (ctx: Ctx, m: ModelDescriptor): Actor => ({
    userId: ctx.who?.userId ?? null, username: ctx.who?.username ?? null, requestId: requestId(ctx.res), context: "api", contextDetail: m.key,
  });
  const archive = new Archive(db, cat, api.settings, tz);
  const routes = api.routes ?? [];

  const router = express.Router({ strict: false, caseSensitive: true });
  // Swagger UI's own files, for the page `doc` serves a browser.
  router.use(`/${ns}/doc/static`, express.static(dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json")), { index: false }));
  router.use(express.raw({ type: () => true, limit: config.bodyLimit }));
  router.use(async (req, res, next) => {
    const rootUrl = `${origin(req, config.publicUrl)}${config.wpApiRoot}`;
    res.set("Link", `<${rootUrl}/>; rel="https://api.w.org/"`);
    res.set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link");
    const path = req.path.replace(/\/+$/, "") || "/";
    if (path !== "/" && path !== `/${ns}` && !path.startsWith(`/${ns}/`) && !path.startsWith("/wp/v2/users/me/application-passwords")) return next();
    let params: Params = {};
    try {
      params = requestParams(queryString(req), Buffer.isBuffer(req.body) ? req.body : undefined, contentType(req));
      const override = (req.get("x-http-method-override") ?? (typeof params._method === "string" ? params._method : "")).toUpperCase();
      const method = req.method === "POST" && OVERRIDABLE.has(override) ? override : req.method;
      const who = await auth.identify(req.get("authorization"), req.ip, res);
      identified(res, who?.username);
      const ctx: Ctx = { req, res, params, who, rootUrl, site: { origin: origin(req, config.publicUrl), nsUrl: `${rootUrl}/${ns}`, tz } };
      await route(ctx, method, path);
    } catch (err) {
      sendError(res, err, params);
    }
  });
  router.use((err: unknown, _req: Request, res: Response, _next: express.NextFunction) => sendError(res, err, {}));
  return router;

  function send(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (ctx.params._envelope !== undefined) {
      ctx.res.status(200).json({ body, status, headers });
      return;
    }
    ctx.res.status(status).set(headers).json(body);
  }

  function sendError(res: Response, err: unknown, params: Params): void {
    let e: WpError;
    const status = (err as { status?: unknown }).status;
    if (err instanceof WpError) e = err;
    else if ((err as { type?: string }).type === "entity.too.large") e = new WpError(413, "rest_request_too_large", "The request body is too large.");
    // The body reader's other refusals (an unknown charset, a broken stream) are the client's.
    else if (typeof status === "number" && status >= 400 && status < 500) e = new WpError(status, "rest_invalid_request", "The request could not be read.");
    else e = new WpError(500, "rest_internal_error", "An internal error occurred.", { request_id: reportFailure(res.req, res, err) });
    if (params._envelope !== undefined) res.status(200).json({ body: e.body(), status: e.status, headers: {} });
    else res.status(e.status).json(e.body());
  }

  async function route(ctx: Ctx, method: string, path: string): Promise<void> {
    if (method === "OPTIONS") return options(ctx, path);
    if (path === "/") return only(method, ["GET"], () => send(ctx, 200, restIndex(ctx)));
    if (path === "/wp/v2/users/me/application-passwords") return only(method, ["POST"], () => createAppPassword(ctx));
    const rest = path.slice(ns.length + 1);
    if (rest === "") return only(method, ["GET"], () => namespaceIndex(ctx));
    if (rest === "/doc") {
      ctx.res.vary("Accept");
      return only(method, ["GET"], () => (parseAccept(ctx.req.get("accept"))[0]?.type === "text/html" ? docPage(ctx) : send(ctx, 200, doc(ctx))));
    }
    const seg = rest.split("/").slice(1);
    const m = cat.byListKey(seg[0]);
    if (!m) throw noRoute();
    const wp = m.wordpress!;
    if (seg.length === 1) {
      if (method === "GET") return list(ctx, m);
      if (method === "POST") return create(ctx, m);
      throw noRoute();
    }
    if (seg.length === 2 && /^\d+$/.test(seg[1])) return item(ctx, method, m, () => byId(m, Number(seg[1])));
    if (seg.length === 3 && seg[1] === "by-slug" && seg[2] && wp.slugRoutes) {
      let slug: string;
      try {
        slug = decodeURIComponent(seg[2]);
      } catch {
        throw invalidParam("slug");
      }
      // No stored slug holds a NUL, and PostgreSQL refuses one in a query.
      if (slug.includes("\u0000")) throw invalidParam("slug");
      return item(ctx, method, m, async () => {
        const row = await db(m.table).where("slug", slug).first();
        if (!row) throw invalidParam("slug");
        return row;
      });
    }
    throw noRoute();
  }

  function only(method: string, allowed: string[], run: () => Promise<void> | void): Promise<void> | void {
    if (!allowed.includes(method) && !(method === "HEAD" && allowed.includes("GET"))) throw noRoute();
    return run();
  }

  function options(ctx: Ctx, path: string): void {
    const regex = path === "/" ? "" : path;
    const r = routes.find((x) => new RegExp(`^${x.regex.replace(/\(\?P<\w+>/g, "(")}$`).test(regex));
    if (!r) throw noRoute();
    const info = describeRoute(r, ns, ctx.rootUrl);
    send(ctx, 200, info, { Allow: (info.methods as string[]).join(", ") });
  }

  function restIndex(ctx: Ctx): Record<string, unknown> {
    return {
      name: api.title,
      description: api.description,
      url: ctx.site.origin,
      home: ctx.site.origin,
      gmt_offset: "0",
      timezone_string: tz,
      namespaces: [ns],
      authentication: {
        "application-passwords": { endpoints: { authorization: `${ctx.site.origin}/wp-admin/authorize-application.php` } },
      },
      routes: Object.fromEntries([
        ["/", { namespace: "", methods: ["GET"], endpoints: [{ methods: ["GET"], args: { context: { default: "view", required: false } } }], _links: { self: [{ href: `${ctx.rootUrl}/` }] } }],
        ...routes.map((r) => [r.regex, describeRoute(r, ns, ctx.rootUrl)]),
      ]),
      _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
    };
  }

  function namespaceIndex(ctx: Ctx): void {
    const asked = ctx.params.namespace === undefined ? ns : ctx.params.namespace;
    if (asked !== ns) throw new WpError(404, "rest_invalid_namespace", "The specified namespace could not be found.");
    send(ctx, 200, {
      namespace: ns,
      routes: Object.fromEntries(routes.map((r) => [r.regex, describeRoute(r, ns, ctx.rootUrl)])),
      _links: { up: [{ href: `${ctx.rootUrl}/` }] },
    });
  }

  function doc(ctx: Ctx): Record<string, unknown> {
    const document = api.openapi[api.versions.default] as Record<string, unknown>;
    return { ...document, servers: [{ url: `${ctx.site.nsUrl}/` }] };
  }

  /** Swagger UI on the document, for a browser: the page asks for the document as JSON. */
  function docPage(ctx: Ctx): void {
    const base = `${config.wpApiRoot}/${ns}/doc`;
    ctx.res.status(200).type("html").send(templates.swagger({ title: api.title, assets: `${base}/static`, schemaUrl: JSON.stringify(base), nonce: cspNonce(ctx.res) }));
  }

  async function createAppPassword(ctx: Ctx): Promise<void> {
    if (!ctx.who) throw forbidden(false);
    const name = ctx.params.name;
    if (name === undefined) throw missingParams(["name"]);
    if (typeof name !== "string" || !name.trim()) throw invalidParam("name");
    send(ctx, 201, await auth.create(ctx.who.userId, name.trim()));
  }

  async function byId(m: ModelDescriptor, id: number): Promise<Row> {
    const row = id <= MAX_ID ? await db(m.table).where("id", id).first() : undefined;
    if (row) return row;
    throw missing(m, id);
  }

  function missing(m: ModelDescriptor, id: RowId): WpError {
    const wp = m.wordpress!;
    if (wp.kind === "term") return new WpError(404, "rest_term_invalid", "Term does not exist.");
    return new WpError(404, `rest-${wp.noun}-not-found`, `${capital(wp.noun)} with ID ${id} does not exist.`);
  }

  function readOptions(ctx: Ctx): ReadOptions {
    return { shape: "full", version: api.versions.default, ctx: { apiUrl: ctx.site.nsUrl } };
  }

  /** The record with this id as the API shows it, read on `conn` (a write's transaction, or the pool). */
  async function one(ctx: Ctx, m: ModelDescriptor, id: RowId, conn: Db = db): Promise<Record<string, unknown>> {
    const [values] = await store.fetch(conn, m, [id], readOptions(ctx));
    // Deleted since it was found: answered as a request arriving after the delete.
    if (!values) throw missing(m, id);
    return new Shaper(cat, ctx.site).record(m, values);
  }

  /** May `who` change this post? Editors any; contributors their own unpublished ones. */
  function canEdit(who: Requester, row: Row): boolean {
    return who.role === "editor" || (row.author === who.userId && !["publish", "future", "private"].includes(row.status));
  }

  async function item(ctx: Ctx, method: string, m: ModelDescriptor, find: () => Promise<Row>): Promise<void> {
    const wp = m.wordpress!;
    if (method === "GET" || method === "HEAD") {
      const row = await find();
      if (wp.kind === "post") {
        if (row.status === "trash") throw new WpError(403, `${wp.noun}-no-longer-available`, `This ${wp.noun} is no longer available`);
        const mine = ctx.who && (ctx.who.role === "editor" || row.author === ctx.who.userId);
        if (row.status !== "publish" && !mine) throw new WpError(403, `${wp.noun}-not-accessible`, `The requested ${wp.noun} is not accessible`);
      }
      return send(ctx, 200, await one(ctx, m, row.id));
    }
    if (method !== "DELETE" && !["POST", "PUT", "PATCH"].includes(method)) throw noRoute();
    if (!ctx.who) throw forbidden(false);
    const who = ctx.who;
    const row = await find();
    const allowed = (r: Row) => (wp.kind === "term" ? who.role === "editor" : canEdit(who, r));
    if (!allowed(row)) throw forbidden(true);
    // Each write locks the row it found and works on what the lock shows; a row deleted in
    // between sends the request round again, to answer as a request arriving after the delete.
    if (method === "DELETE") {
      const force = wp.kind === "term" || (boolParam(ctx.params, "force") ?? false);
      const done = await writeTransaction(operations, actor(ctx, m), m, async (trx) => {
        // Trashing changes no key: linking the row meanwhile (a key share) need not wait.
        const locked = trx(m.table).where("id", row.id);
        const current: Row | undefined = await (force ? locked.forUpdate() : locked.forNoKeyUpdate()).first();
        if (!current) return null;
        if (!allowed(current)) throw forbidden(true);
        if (force) {
          const before = await one(ctx, m, row.id, trx);
          await store.remove(trx, m, [row.id]);
          return before;
        }
        if (current.status === "trash") throw new WpError(410, `${wp.noun}-is-in-trash`, `The ${wp.noun} is already trashed`);
        const trashed = store.draft(trx, m, row.id);
        Object.assign(trashed.row, { status: "trash", modified: trx.fn.now() });
        await writer.save(trashed);
        // The plugin unlinks a trashed venue or organizer from its events.
        await store.detach(trx, m, [row.id]);
        return one(ctx, m, row.id, trx);
      });
      if (done === null) return item(ctx, method, m, find);
      return send(ctx, 200, done);
    }
    const { id: _id, slug: _slug, ...rest } = ctx.params;
    const body = ctx.req.path.includes("/by-slug/") ? rest : { ...rest, ...(ctx.params.slug !== undefined ? { slug: ctx.params.slug } : {}) };
    const done = await writeTransaction(operations, actor(ctx, m), m, async (trx) => {
      // No key update: events written alongside may take a key share on this row to link it.
      const current: Row | undefined = await trx(m.table).where("id", row.id).forNoKeyUpdate().first();
      if (!current) return null;
      if (!allowed(current)) throw forbidden(true);
      if (wp.kind === "term") await termNameFree(trx, m, body, current);
      await writer.update(trx, m, current, body, who);
      // Read in the write's transaction: the answer shows this write, whatever commits next.
      return one(ctx, m, row.id, trx);
    });
    if (!done) return item(ctx, method, m, find);
    send(ctx, 200, done);
  }

  /**
   * 400 term_exists when another term under the same parent (the given one, else the current)
   * has the name; holds the name's lock until the transaction ends.
   */
  async function termNameFree(trx: Knex, m: ModelDescriptor, params: Params, current?: Row): Promise<void> {
    if (typeof params.name !== "string") return;
    await lockTermName(trx, m, params.name);
    const q = trx(m.table).whereRaw("lower(name) = lower(?)", [params.name.trim()]);
    if (current) q.whereNot("id", current.id);
    if (cat.field(m, "parent")) {
      const parent = params.parent === undefined && current ? current[cat.col(m, "parent")] : positiveInt(params.parent);
      if (parent) q.where(cat.col(m, "parent"), parent); else q.whereNull(cat.col(m, "parent"));
    }
    const existing = await q.first();
    if (existing) throw new WpError(400, "term_exists", "A term with the name provided already exists with this parent.", { term_id: existing.id });
  }

  async function create(ctx: Ctx, m: ModelDescriptor): Promise<void> {
    if (!ctx.who) throw forbidden(false);
    const wp = m.wordpress!;
    if (wp.kind === "term" && ctx.who.role !== "editor") throw forbidden(true);
    const who = ctx.who;
    const { id: _id, ...body } = ctx.params;
    const created = await writeTransaction(operations, actor(ctx, m), m, async (trx) => {
      if (wp.kind === "term") await termNameFree(trx, m, body);
      return one(ctx, m, await writer.create(trx, m, body, who), trx);
    });
    const headers: Record<string, string> = wp.kind === "term" ? { Location: `${ctx.site.nsUrl}/${wp.listKey}/${created.id}` } : {};
    send(ctx, 201, created, headers);
  }

  /** The first parameter an archive's plan or its checks refuse, as WordPress reports it. */
  function firstInvalid(errors: Record<string, unknown>): WpError {
    return invalidParam(Object.keys(errors)[0]);
  }

  async function list(ctx: Ctx, m: ModelDescriptor): Promise<void> {
    const wp = m.wordpress!;
    const paged = paging(ctx.params, api.settings);
    const isEventLike = wp.kind === "post" && m.fields.some((f) => (f.kind === "fk" || f.kind === "m2m") && cat.model(f.target).wordpress);
    const plan: ArchivePlan = wp.kind === "term" ? archive.terms(m, ctx.params)
      : isEventLike ? archive.posts(m, ctx.params, ctx.who)
      : archive.linked(m, ctx.params, ctx.who);
    if (plan.stopped) {
      // A parameter met before the one that stopped planning may be refuted by the data.
      const earlier = await store.filterErrors(db, plan.filter, {});
      throw earlier ? firstInvalid(earlier) : plan.stopped;
    }
    const offset = Math.min((paged.page - 1) * paged.perPage, Number.MAX_SAFE_INTEGER);
    let page: { count: number; results: Array<Record<string, unknown>> };
    try {
      page = await store.list(db, m, plan.filter, { limit: paged.perPage, offset }, { ...readOptions(ctx), ordering: plan.ordering });
    } catch (err) {
      if (err instanceof ValidationError && !Array.isArray(err.errors)) throw firstInvalid(err.errors);
      throw err;
    }
    const result = { total: page.count, echo: plan.echo };
    const totalPages = result.total ? Math.ceil(result.total / paged.perPage) : 0;
    if (wp.kind === "post" && !page.results.length && paged.page > 1) {
      throw new WpError(404, `${wp.noun}-archive-page-not-found`, `The requested ${wp.noun} archive page does not exist`);
    }
    const shaper = new Shaper(cat, ctx.site);
    const records = page.results.map((values) => shaper.record(m, values));
    const base = `${ctx.site.nsUrl}/${wp.listKey}/`;
    const url = (page: number, withFilters: boolean) => {
      const qs = new URLSearchParams(withFilters ? result.echo : {});
      if (withFilters && ctx.params.per_page !== undefined) qs.set("per_page", String(paged.perPage));
      if (page > 1) qs.set("page", String(page));
      const s = qs.toString();
      return s ? `${base}?${s}` : base;
    };
    const headers = {
      "X-TEC-Total": String(result.total), "X-TEC-TotalPages": String(totalPages),
      "X-WP-Total": String(result.total), "X-WP-TotalPages": String(totalPages),
    };
    const next = paged.page < totalPages ? { next_rest_url: url(paged.page + 1, wp.kind === "post") } : {};
    // Post archives never get here past their last page (404 above); term archives link the
    // previous page arithmetically, as WordPress's terms controller does.
    const previous = paged.page > 1 ? { previous_rest_url: url(paged.page - 1, wp.kind === "post") } : {};
    // WordPress core's collection paging links, which generic REST clients (wpapi's _paging) follow.
    if (next.next_rest_url) ctx.res.append("Link", `<${next.next_rest_url}>; rel="next"`);
    if (previous.previous_rest_url) ctx.res.append("Link", `<${previous.previous_rest_url}>; rel="prev"`);
    if (wp.kind === "term") {
      return send(ctx, 200, { rest_url: base, total: result.total, total_pages: totalPages, [wp.listKey]: records, ...next, ...previous }, headers);
    }
    send(ctx, 200, { [wp.listKey]: records, rest_url: url(paged.page, true), ...next, ...previous, total: result.total, total_pages: totalPages }, headers);
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * What WordPress answers for a path under the REST root that no route matches: 404
 * `rest_no_route`, with the discovery link every REST response carries. Mounted after every
 * API of the profile, so APIs sharing the root each get their chance first.
 */
export function wordpressNoRoute(config: Config): express.RequestHandler {
  return (req, res) => {
    res.set("Link", `<${origin(req, config.publicUrl)}${config.wpApiRoot}/>; rel="https://api.w.org/"`);
    res.status(404).json(noRoute().body());
  };
}

/** Loads fixtures through the same writer and write features as the API, as an editor, in the caller's operation. */
export async function loadWordpressFixtures(db: Knex, api: ApiDescriptor, fixtures: Fixture[], userId?: string): Promise<number> {
  const { index, store } = new Engine(api, db);
  const cat = new Catalog(api, index);
  const writer = new Writer(cat, store, String(api.settings.timezone ?? "UTC"), async () => true);
  const who: Requester = { userId: userId ?? "", username: "fixtures", role: "editor" };
  await db.transaction(async (trx) => {
    for (const f of fixtures) await writer.create(trx, cat.model(f.model), f.data, who);
  });
  return fixtures.length;
}

/** `create-app-password --username U [--name N]`: a new application password for a user of the API that keeps them. */
export const createAppPassword: ProfileCommand = async ({ db, apis, identities, opts }) => {
  if (!opts.username) throw new Error("create-app-password needs --username");
  const owner = apis.find((a) => a.appPasswords);
  if (!owner) throw new Error("no API declares appPasswords");
  const auth = new WpAuth(db, identities, owner.models.find((m) => m.key === owner.appPasswords)!);
  const userId = await auth.userId(opts.username);
  if (!userId) throw new Error(`no user ${opts.username}`);
  const created = await auth.create(userId, opts.name ?? "cli");
  return `application password for ${opts.username} (${created.name}): ${created.password}`;
};
