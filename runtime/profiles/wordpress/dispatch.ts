// From a path to a view, by the generated route table alone (ApiDescriptor.routes) plus the
// two routes of WordPress core the profile serves. The matcher is compiled once per API and
// works on strings: no Express routing per request. A route's path arguments are decoded
// before its method is checked, as WordPress validates them first.
import type { ModelDescriptor, WpRoute } from "../../descriptor.js";
import { invalidParam, noRoute } from "./errors.js";
import type { WpApi, WpRequest } from "./context.js";
import { VIEWS, type ViewKind } from "./views/index.js";
import { optionsView } from "./views/options.js";
import { chargeRequest } from "./rate-limit.js";
import { publish } from "../../telemetry.js";

/** The route of the application passwords of the requester (WordPress core's, under `wp/v2`). */
const APP_PASSWORDS = "/wp/v2/users/me/application-passwords";

interface ServedRoute {
  regex: string;
  model?: string;
  endpoints: ReadonlyArray<{ methods: string[]; view: ViewKind }>;
}

/** WordPress core's routes the profile serves beside the API's table: not listed, no OPTIONS. */
const CORE_ROUTES: ServedRoute[] = [
  { regex: "/", endpoints: [{ methods: ["GET"], view: "index" }] },
  { regex: APP_PASSWORDS, endpoints: [{ methods: ["POST"], view: "app-password" }] },
];

interface Compiled {
  pattern: RegExp;
  route: ServedRoute;
  model?: ModelDescriptor;
  /** The API's table route as generated, for OPTIONS; none for core routes. */
  listed?: WpRoute;
}

export class WpDispatcher {
  private readonly compiled: Compiled[];
  private readonly nsPath: string;

  constructor(wp: WpApi) {
    this.nsPath = `/${wp.ns}`;
    // WordPress's route regexes name their groups PCRE's way, `(?P<name>…)`.
    const compile = (route: ServedRoute, listed?: WpRoute): Compiled => ({
      pattern: new RegExp(`^${route.regex.replace(/\(\?P</g, "(?<")}$`),
      route,
      model: route.model ? wp.cat.model(route.model) : undefined,
      listed,
    });
    this.compiled = [...(wp.api.routes ?? []).map((r) => compile(r, r)), ...CORE_ROUTES.map((r) => compile(r))];
  }

  /** Whether the API answers `path`: the REST root, its namespace, and application passwords. */
  claims(path: string): boolean {
    return path === "/" || path === this.nsPath || path.startsWith(`${this.nsPath}/`) || path.startsWith(APP_PASSWORDS);
  }

  /** The route the request's path matches, with its path arguments as written; a request no route takes is charged as a read first. */
  private async match(base: WpRequest): Promise<{ hit: Compiled; groups: Record<string, string> }> {
    for (const hit of this.compiled) {
      const m = hit.pattern.exec(base.path);
      if (m) {
        this.routed(base, hit);
        return { hit, groups: m.groups ?? {} };
      }
    }
    this.routed(base, undefined);
    await chargeRequest(base, undefined);
    throw noRoute();
  }

  /** Tells who listens (runtime/telemetry.ts) which route of the table, by its regex as WordPress names routes, served the request. */
  private routed(base: WpRequest, hit: Compiled | undefined): void {
    publish("http.routed", { res: base.res, api: base.wp.api.name, route: hit ? `${base.req.baseUrl}${hit.route.regex}` : null, fast: base.fast });
  }

  async dispatch(base: WpRequest): Promise<void> {
    if (base.method === "OPTIONS") {
      const hit = this.compiled.find((c) => c.listed && c.pattern.test(base.path));
      this.routed(base, hit?.listed ? hit : undefined);
      await chargeRequest(base, undefined);
      if (!hit?.listed) throw noRoute();
      return optionsView({ ...base, args: {} }, hit.listed);
    }
    const { hit, groups } = await this.match(base);
    const endpoints = hit.route.endpoints;
    const varies = endpoints.map((e) => VIEWS[e.view].varies).find(Boolean);
    if (varies) base.res.vary(varies);
    const endpoint = endpoints.find((e) => e.methods.includes(base.method))
      ?? (base.method === "HEAD" ? endpoints.find((e) => e.methods.includes("GET") && VIEWS[e.view].head) : undefined);
    await chargeRequest(base, endpoint?.view);
    const args = decodeArgs(groups);
    if (!endpoint) throw noRoute();
    return VIEWS[endpoint.view].run({ ...base, args, model: hit.model });
  }
}

/** Path arguments as their text; one that is no URI component, or holds a NUL, is invalid. */
function decodeArgs(groups: Record<string, string>): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [name, raw] of Object.entries(groups)) {
    try {
      args[name] = decodeURIComponent(raw);
    } catch {
      throw invalidParam(name);
    }
    // No stored value holds a NUL, and PostgreSQL refuses one in a query.
    if (args[name].includes("\u0000")) throw invalidParam(name);
  }
  return args;
}
