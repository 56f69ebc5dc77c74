// What a view works with, and nothing else: the API as served (WpApi: its descriptor, the
// engine's store and operations, the writer, the archive planner and the policy record, built
// once per API, with the SQL of its records' JSON text) and the request being answered (WpContext: its parameters, requester, site
// URLs and the matched route's arguments and model).
import type { Request, Response } from "express";
import type { Knex } from "knex";
import type { ApiDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { Config } from "../../config.js";
import type { Identities } from "../../auth/identities.js";
import type { Operations } from "../../operations/index.js";
import type { Store } from "../../store.js";
import { Engine } from "../../engine.js";
import { WpAuth, type Requester } from "./auth.js";
import { Catalog, type Site } from "./records.js";
import { RecordTexts } from "./record-text.js";
import { Archive } from "./archive.js";
import { Writer } from "./writes.js";
import type { Params } from "./params.js";
import { wordpressPolicy, type WpPolicy } from "./policy.js";
import { RateLimits } from "../../http/rate-limits.js";

export interface WpDeps {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
}

export interface WpApi {
  readonly api: ApiDescriptor;
  readonly db: Knex;
  readonly config: Config;
  /** The namespace without its slashes (`calendar/events/v1`). */
  readonly ns: string;
  /** The site's timezone name. */
  readonly tz: string;
  readonly cat: Catalog;
  /** The JSON text of records as PostgreSQL writes them, for the reads that pass it through. */
  readonly texts: RecordTexts;
  readonly store: Store;
  readonly operations: Operations;
  readonly writer: Writer;
  readonly archive: Archive;
  readonly appPasswords: WpAuth;
  readonly policy: WpPolicy;
  /** The rate limits requests are charged against, when they are on. */
  readonly limits?: RateLimits;
}

/** A request as read, before routing. */
export interface WpRequest {
  readonly wp: WpApi;
  readonly req: Request;
  readonly res: Response;
  /** The method served: the request's, or the one a POST overrides it with. */
  readonly method: string;
  /** The path under the REST root, without trailing slashes (`/` for the root). */
  readonly path: string;
  readonly params: Params;
  readonly who: Requester | null;
  readonly site: Site;
  /** The REST root's URL (`http://host/wp-json`). */
  readonly rootUrl: string;
  /** Set when the fast path routed it (runtime/http/fast-path.ts), not Express. */
  readonly fast?: true;
}

/** What routing found: the route's path arguments and the model it serves. */
export interface RouteMatch {
  /** The matched route's path arguments (`id`, `slug`), decoded. */
  readonly args: Readonly<Record<string, string>>;
  /** The model the matched route serves, if it serves one. */
  readonly model?: ModelDescriptor;
}

/** What a view is given: the request, its route, and through `wp` the API it is served by. */
export interface WpContext extends WpRequest, RouteMatch {}

export function servedApi({ api, db, config, identities }: WpDeps): WpApi {
  const { index, store, operations } = new Engine(api, db);
  const cat = new Catalog(api, index);
  const tz = String(api.settings.timezone ?? "UTC");
  const passwordsModel = api.appPasswords ? cat.model(api.appPasswords) : undefined;
  const appPasswords = new WpAuth(db, identities, passwordsModel);
  // Asked on the writer's own connection: the transaction may hold the only one (PGlite).
  const userExists = async (conn: Knex, id: string) => !!identities && !!(await identities.byId(conn, id));
  const ns = api.basePath.replace(/^\/|\/$/g, "");
  return {
    api, db, config, tz, cat, store, operations, appPasswords, ns,
    texts: new RecordTexts(cat, store.plans, tz, `${config.wpApiRoot}/${ns}`),
    writer: new Writer(cat, store, tz, userExists),
    archive: new Archive(db, cat, api.settings, tz),
    policy: wordpressPolicy(api, db, identities, passwordsModel ? appPasswords : undefined, config),
    limits: RateLimits.of(db, config.rateLimits),
  };
}

/** Answers the request with `body` as JSON, through the API's renderer. */
export function respond(ctx: WpContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  ctx.wp.policy.renderer.json(ctx.res, ctx.params, status, body, headers);
}
