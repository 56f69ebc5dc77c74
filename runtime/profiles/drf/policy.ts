// The API's policy, as DRF's settings name it: how a request is authenticated and
// authorized, paged, rendered and negotiated, and how a failure is answered. Built once per
// API; every view reads it from its context.
import type { Request, Response } from "express";
import type { Identity } from "../../auth/identities.js";
import { identified } from "../../http/request-log.js";
import type { DrfRoute } from "../../descriptor.js";
import { authenticate } from "./authentication.js";
import { sessionFor } from "./browser-session.js";
import type { Ctx, DrfServices } from "./context.js";
import { handleException } from "./exception-handler.js";
import { Paginator } from "./pagination.js";
import { permission, SAFE, type Permission } from "./permission.js";
import { renderAhead, send } from "./renderer.js";
import type { RouteMatch } from "./routes.js";
import { negotiate, type ExtraRenderers, type Renderer } from "./versioning.js";
import { SCHEMA_TYPES } from "./views/documents.js";

/** What the document's routes render besides JSON, for negotiation. */
const SCHEMA_RENDERERS: Record<NonNullable<DrfRoute["document"]>, ExtraRenderers> = {
  both: { types: SCHEMA_TYPES, formats: ["yaml"] },
  yaml: { types: SCHEMA_TYPES, formats: ["yaml"] },
  json: { types: SCHEMA_TYPES, formats: [] },
};

/** A list renders itself as a CSV file too (Nautobot 2.x's NautobotCSVRenderer). */
const LIST_RENDERERS: ExtraRenderers = { types: ["text/csv"], formats: ["csv"] };
/** The views that answer a list: a model's own, its further listings (`dcim/console-connections/`), an object's notes. */
const LIST_VIEWS = new Set<string | undefined>(["list", "listing", "notes"]);

export interface Policy {
  /** Who the request acts as (a token, a password where the route allows one, or a browser session), and that session. */
  authenticators(req: Request, res: Response, found: RouteMatch | undefined): Promise<{ identity: Identity | null; session?: string }>;
  permission: Permission;
  paginator: Paginator;
  /** Settles once the answer is sent, where its text is still arriving (ArrivingJsonText). */
  renderer: (ctx: Ctx, status: number, body: unknown) => void | Promise<void>;
  /** Makes an answer's rendering ahead of `renderer`'s sending it, where the renderer can (an operation's answer, while it commits). */
  renderAhead: (ctx: Ctx, body: object) => void;
  exceptionHandler: (res: Response, err: unknown, ctx?: Ctx) => void;
  /** The API version and the renderer the request asks for. */
  negotiator(req: Request, params: Map<string, string[]>, found: RouteMatch | undefined): { version: string; renderer: Renderer };
}

export function drfPolicy(drf: DrfServices): Policy {
  const { api, db, config, identities } = drf;
  const settings = api.settings;
  return {
    async authenticators(req, res, found) {
      const view = found?.route.view;
      const tokenProvisioning = !!drf.tokenModel && req.method === "POST" && view === "list" && found!.route.model === drf.tokenModel.key;
      // A GraphQL POST only reads, and a page elsewhere cannot send its JSON without a preflight: GraphiQL may use the session.
      const safe = SAFE.has(req.method) || (req.method === "POST" && (view === "logout" || view === "graphql"));
      const session = sessionFor(req, safe);
      const identity = await authenticate(db, identities, req.get("authorization"), tokenProvisioning, session, { address: req.ip, limits: config });
      identified(res, identity?.username);
      return { identity, session: req.get("authorization") ? undefined : session };
    },
    permission,
    paginator: new Paginator({
      defaultLimit: Number(settings.PAGINATE_COUNT ?? 50),
      maxLimit: settings.MAX_PAGE_SIZE ? Number(settings.MAX_PAGE_SIZE) : null,
    }, config.publicUrl),
    renderer: send,
    renderAhead,
    exceptionHandler: (res, err, ctx) => handleException(drf, res, err, ctx),
    negotiator(req, params, found) {
      const view = found?.route.view;
      const extra = view === "swagger" ? SCHEMA_RENDERERS[found!.route.document!] : LIST_VIEWS.has(view) ? LIST_RENDERERS : undefined;
      return negotiate(req.get("accept"), params.get("api_version")?.at(-1), params.get("format")?.at(-1), api.versions, extra);
    },
  };
}
