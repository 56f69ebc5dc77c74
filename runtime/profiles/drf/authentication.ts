// DRF-style authentication: `Authorization: Token <key>` on every route, HTTP Basic only
// where a route allows it (token provisioning), and a browser login's session token when
// the caller passes one. Every failure is a 403, as DRF sends when its first
// authentication class offers no challenge; too many failed passwords are DRF's 429.
import type { RequestHandler } from "express";
import type { Knex } from "knex";
import { HttpError } from "../../errors.js";
import { databaseUnavailable, RETRY_AFTER_SECONDS } from "../../db/errors.js";
import { identified } from "../../http/request-log.js";
import type { ProfileDeps } from "../index.js";
import { sessionFor } from "./browser-session.js";
import { unauthenticated } from "./permission.js";
import type { Identities, Identity } from "../../auth/identities.js";
import { parseBasic } from "../../auth/identities.js";
import { AuthThrottle, Throttled, type ThrottleLimits } from "../../auth/throttle.js";
import { wordProblem } from "./wording.js";

const refuse = (message: string) => new HttpError(403, message, "authentication_failed");

/** DRF's `Throttled` exception (failed passwords, rate limits): its wording, and `Retry-After` as its exception handler sets it. */
export function throttled(err: Pick<Throttled, "retryAfter" | "wait">): HttpError {
  return new HttpError(429, `Request was throttled. Expected available in ${err.wait}.`, "throttled", { "Retry-After": String(err.retryAfter) });
}

/** The client a password comes from, and the limits on failed passwords. */
export interface PasswordClient {
  address: string | undefined;
  limits: ThrottleLimits;
}

export async function authenticate(db: Knex, identities: Identities | undefined, header: string | undefined, allowBasic: boolean,
  sessionKey: string | undefined, client: PasswordClient): Promise<Identity | null> {
  if (!identities) return null;
  if (!header) {
    if (!sessionKey) return null;
    // A stale or revoked browser session is simply no session: the visitor can log in again.
    const found = await identities.byToken(db, sessionKey);
    return "identity" in found ? found.identity : null;
  }
  const parts = header.trim().split(/\s+/);
  const scheme = parts[0].toLowerCase();
  if (scheme === "token") {
    if (parts.length === 1) throw refuse("Invalid token header. No credentials provided.");
    if (parts.length > 2) throw refuse("Invalid token header. Token string should not contain spaces.");
    if (!/^[\x20-\x7e]+$/.test(parts[1])) throw refuse("Invalid token header. Token string should not contain invalid characters.");
    const found = await identities.byToken(db, parts[1]);
    if ("refused" in found) throw refuse(wordProblem(found.refused));
    return found.identity;
  }
  if (scheme === "basic" && allowBasic) {
    const creds = parseBasic(header);
    if (!creds) throw refuse("Invalid basic header. Credentials not correctly base64 encoded.");
    const throttle = new AuthThrottle(db, client.limits);
    const identity = await throttle.attempt({ username: creds.username, address: client.address, via: "token provisioning" }, () => identities.byPassword(db, creds.username, creds.password))
      .catch((err: unknown) => { throw err instanceof Throttled ? throttled(err) : err; });
    if (!identity) throw refuse("Invalid username/password.");
    return identity;
  }
  return null;
}

/**
 * A route of the site's own that only a requester DRF would call authenticated may use
 * (Nautobot's `/metrics` under METRICS_AUTHENTICATED, IsAuthenticated): a token, or a browser
 * login's session. Anything else is the 403 DRF answers, in its words; credentials are never
 * taken by password here.
 */
export function requireAuthenticated({ db, identities, config }: ProfileDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      const identity = await authenticate(db, identities, req.get("authorization"), false, sessionFor(req, true), { address: req.ip, limits: config });
      if (!identity) throw unauthenticated();
      identified(res, identity.username);
      next();
    } catch (err) {
      if (err instanceof HttpError) res.status(err.status).set(err.headers).json({ detail: err.problem ? wordProblem(err.problem) : err.message });
      else if (databaseUnavailable(err)) res.status(503).set("Retry-After", String(RETRY_AFTER_SECONDS)).json({ detail: "The database is unavailable; try again shortly." });
      else next(err);
    }
  };
}
