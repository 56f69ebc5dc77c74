// What a DRF view is given: the request context (one per request) and, through it, the API's
// services and policy (built once per API by index.ts).
import type { Request, Response } from "express";
import type { Knex } from "knex";
import type { ApiDescriptor, ModelDescriptor, PluginDescriptor } from "../../descriptor.js";
import type { Config } from "../../config.js";
import type { Identities, Identity } from "../../auth/identities.js";
import type { Engine } from "../../engine.js";
import type { Allocations } from "../../operations/allocations.js";
import type { FilterCompiler } from "../../query/filters.js";
import type { dynamicFilters } from "../../features/index.js";
import type { ExportTemplates } from "../../features/index.js";
import type { Grants } from "../../features/index.js";
import type { Renderer } from "./versioning.js";
import type { BrowsableView } from "./browsable.js";
import type { SessionDeps } from "./browser-session.js";
import type { GraphqlDeps } from "./graphql.js";
import type { Policy } from "./policy.js";
import type { RouteMatch } from "./routes.js";

/** The API's services, shared by every request. */
export interface DrfServices {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
  engine: Engine;
  index: Engine["index"];
  store: Engine["store"];
  operations: Engine["operations"];
  permissions: Engine["permissions"];
  allocations: Allocations;
  filters: FilterCompiler;
  /** Filters features add (dynamic groups), planned per request. */
  providers: ReturnType<typeof dynamicFilters>;
  /** Unknown filter parameters are a 400. */
  strict: boolean;
  /** Query parameters that are never filters on a model's list or detail. */
  reserved: Set<string>;
  exports?: ExportTemplates;
  tokenModel?: ModelDescriptor;
  userModel?: ModelDescriptor;
  /** The users' column of own settings (`<users app>/config/`). */
  settingsColumn?: string;
  /** Whether anonymous requests may read `m` (EXEMPT_VIEW_PERMISSIONS). */
  exemptView(m: ModelDescriptor): boolean;
  graphql?: GraphqlDeps;
  sessions?: SessionDeps;
  /** What each app's root lists: the routes one segment below it. */
  appRoutes: Map<string, string[]>;
  /** The API's apps PLUGINS enables, in its order (runtime/plugins.ts). */
  plugins: PluginDescriptor[];
  /** The largest multipart body taken (an upload and its form). */
  uploadBodyLimit: number;
}

/** The services and the policy: what `ctx.drf` holds. */
export interface Drf extends DrfServices {
  policy: Policy;
}

/** One request, as every view sees it. */
export interface Ctx {
  req: Request;
  res: Response;
  drf: Drf;
  /** The route the path matched, with what its placeholders took. */
  match: RouteMatch;
  version: string;
  renderer: Renderer;
  identity: Identity | null;
  apiUrl: string;
  params: Map<string, string[]>;
  /** The requester's object permissions, once a view asked for them. */
  grants?: Grants;
  /** The browser session the request acts with, if any. */
  session?: string;
  /** What the browsable view draws its forms and filters from. */
  view?: BrowsableView;
}

/** A view: answers one request of its route. */
export type View = (ctx: Ctx) => Promise<void> | void;
