// Response headers every reply carries, whichever API answers: a content-security policy
// (HTML pages load scripts only from this server, plus the one inline script a page marks
// with the response's nonce), no MIME sniffing, no framing, no referrer leaks; and the CORS
// policy, off unless origins are configured. Both come from well-kept libraries (helmet,
// cors); this module only configures them.
import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import cors, { type CorsOptions } from "cors";
import type { Config } from "../config.js";

/** The nonce that lets a page's own inline script run under the content-security policy. */
export const cspNonce = (res: Response): string => String(res.locals.cspNonce ?? "");

export function securityHeaders(): RequestHandler[] {
  return [
    (_req, res, next) => {
      res.locals.cspNonce = randomBytes(16).toString("hex");
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", (_req, res) => `'nonce-${cspNonce(res as Response)}'`],
          // Swagger UI and the browsable view style elements inline.
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          // GraphiQL's stylesheet carries its fonts inline, as data: URLs.
          "font-src": ["'self'", "data:"],
          "connect-src": ["'self'"],
          "object-src": ["'none'"],
          "base-uri": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
        },
      },
      frameguard: { action: "deny" },
      referrerPolicy: { policy: "same-origin" },
      // Whether the server is reached over TLS is the operator's proxy's business, not ours to pin.
      strictTransportSecurity: false,
    }),
  ];
}

/** Headers a browser script on another origin may read (paging totals, links, version, ids). */
const EXPOSED = ["API-Version", "Link", "Location", "Retry-After", "X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
  "X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages"];

/**
 * CORS per `config.corsOrigins` (none: no CORS headers at all; `*`: any origin). Only a real
 * preflight (OPTIONS with Access-Control-Request-Method) is answered here; any other OPTIONS
 * request is an API call (DRF's metadata), which goes on to its route with the CORS headers set.
 */
export function corsPolicy(config: Config): RequestHandler | undefined {
  const allowed = config.corsOrigins;
  if (!allowed.length) return undefined;
  const options: CorsOptions = {
    origin: (origin, done) => done(null, !!origin && (allowed.includes("*") || allowed.includes(origin))),
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    exposedHeaders: EXPOSED,
    maxAge: 600,
  };
  const preflight = cors(options);
  const simple = cors({ ...options, preflightContinue: true });
  return (req, res, next) => (req.method === "OPTIONS" && req.get("access-control-request-method") ? preflight : simple)(req, res, next);
}
