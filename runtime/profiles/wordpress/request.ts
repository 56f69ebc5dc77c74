// A request to the API, read once: the discovery headers every answer under the REST root
// carries, whether the path is this API's, the parameters (query and body), the method (a
// POST may override it, as WordPress allows), and the requester; then the dispatcher's view.
// Every failure on the way is the exception handler's.
import type { RequestHandler } from "express";
import { contentType, origin, queryString } from "../../http/request.js";
import { identified } from "../../http/request-log.js";
import { requestParams, type Params } from "./params.js";
import { identify } from "./authenticators.js";
import { chargeRefused } from "./rate-limit.js";
import { chargeUnread } from "../../http/rate-limits.js";
import type { WpApi } from "./context.js";
import type { WpDispatcher } from "./dispatch.js";

const OVERRIDABLE = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** What a browser script may read of the rate limits, when they are on. */
const RATE_LIMIT_HEADERS = ", Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";

/** `fast`: the handler the fast path calls (runtime/http/fast-path.ts), which tells so when it routes. */
export function requestHandler(wp: WpApi, dispatcher: WpDispatcher, fast?: true): RequestHandler {
  const { config, policy, ns, tz } = wp;
  return async (req, res, next) => {
    const rootUrl = `${origin(req, config.publicUrl)}${config.wpApiRoot}`;
    res.set("Link", `<${rootUrl}/>; rel="https://api.w.org/"`);
    res.set("Access-Control-Expose-Headers", `X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link${wp.limits ? RATE_LIMIT_HEADERS : ""}`);
    const path = req.path.replace(/\/+$/, "") || "/";
    if (!dispatcher.claims(path)) return next();
    let params: Params = {};
    try {
      params = requestParams(queryString(req), Buffer.isBuffer(req.body) ? req.body : undefined, contentType(req));
      const override = (req.get("x-http-method-override") ?? (typeof params._method === "string" ? params._method : "")).toUpperCase();
      const method = req.method === "POST" && OVERRIDABLE.has(override) ? override : req.method;
      const who = await identify(policy.authenticators, req.get("authorization"), req.ip, res).catch(async (err: unknown) => {
        await chargeRefused(wp.limits, req, res);
        throw err;
      });
      identified(res, who?.username);
      const site = { origin: origin(req, config.publicUrl), nsUrl: `${rootUrl}/${ns}`, tz };
      await dispatcher.dispatch({ wp, req, res, method, path, params, who, site, rootUrl, fast });
    } catch (err) {
      policy.exceptionHandler(res, await chargeUnread(wp.limits, req, res, err), params);
    }
  };
}
