// The DRF requests the fast path answers (runtime/http/fast-path.ts): reads and writes of a
// model's list and detail routes. A browsable page (`?format=api`, an Accept naming HTML), an
// upload (a multipart body), a route below a static asset path and every other route are left
// to Express. What the table says of a route (whether it is fast, its label) is decided once.
import type { RequestHandler, Request, Response } from "express";
import type { DrfRoute, DrfView } from "../../descriptor.js";
import type { FastRoutes } from "../../http/fast-path.js";
import { parseQuery } from "../../http/request.js";
import type { RouteMatch, RouteTable } from "./routes.js";

/** A request as the dispatcher takes it: its route, query parameters and route label. */
export interface Routed {
  match: RouteMatch | undefined;
  params: Map<string, string[]>;
  /** The route's template below the site (`/api/<app>/<models>/{id}/`), null when none matched. */
  route: string | null;
  /** Set when the fast path routed it. */
  fast?: true;
}

/** Answers a request from its route, which `routed` gives (called where its failures are answered). */
export type Dispatch = (req: Request, res: Response, routed: () => Routed) => Promise<void>;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
const VIEWS = new Set<DrfView>(["list", "detail"]);
const HTML = /html/i;
const MULTIPART = /multipart/i;

export interface FastDeps {
  table: RouteTable;
  /** Where the API is mounted, as the fast path matches it. */
  mount: string;
  /** Paths below the API whose static files Express serves first. */
  assets: string[];
  /** The body parser the router runs for any body that is not an upload. */
  readBody: RequestHandler;
  /** Answers a body the parser refused. */
  unread: (err: unknown, req: Request, res: Response) => Promise<void>;
  dispatch: Dispatch;
}

export function fastRoutes({ table, mount, assets, readBody, unread, dispatch }: FastDeps): FastRoutes {
  const underAssets = (r: DrfRoute) => assets.some((a) => r.path === a || r.path.startsWith(`${a}/`));
  const labels = new Map(table.routes.filter((r) => VIEWS.has(r.view) && !underAssets(r)).map((r) => [r, `${mount}/${r.path}`]));
  return {
    claim(method, path, query, headers) {
      if (!METHODS.has(method) || HTML.test(headers.accept ?? "") || MULTIPART.test(headers["content-type"] ?? "")) return undefined;
      let match: RouteMatch | undefined;
      try {
        match = table.match(path, method);
      } catch {
        // A placeholder that does not decode: Express's path answers it, as it does every failure of routing.
        return undefined;
      }
      const route = match && labels.get(match.route);
      if (!route) return undefined;
      const params = parseQuery(query);
      if (params.get("format")?.at(-1) === "api") return undefined;
      const routed: Routed = { match, params, route, fast: true };
      return (req, res) => readBody(req, res, (err?: unknown) => void (err ? unread(err, req, res) : dispatch(req, res, () => routed)));
    },
  };
}
