// Logging in from a browser, for the browsable HTML view. A login is an ordinary API token
// (read-only, expiring) kept in an HttpOnly cookie, so sessions live in the database like
// every token and any instance can serve them. As Django's CSRF protection, the cookie is
// honoured on safe methods, and on a write only with the session's CSRF token in
// `X-CSRFToken`, which only the session's own pages carry: a page elsewhere cannot make a
// browser write. Such a write is the session's, not the token's: the key alone, sent as
// `Authorization: Token`, stays read-only.
// Failed logins count towards the same limits as HTTP Basic (auth/throttle.ts).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import type { Knex } from "knex";
import type { Identities, Identity } from "../../auth/identities.js";
import type { Tokens } from "../../auth/tokens.js";
import { AuthThrottle, Throttled, type ThrottleLimits } from "../../auth/throttle.js";
import { templates } from "../../http/templates.js";
import { requestId } from "../../http/failures.js";
import type { Operations } from "../../operations/index.js";

export const SESSION_COOKIE = "armature_session";
/** What a browser session's token says it is: how `clearsessions` tells sessions from API tokens. */
export const SESSION_DESCRIPTION = "browser session";
const LIFETIME_MS = 14 * 24 * 3600 * 1000;

/** The session token key from the request's cookies, if any. */
export function sessionKey(req: Request): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The CSRF token of a session: derived from its secret key, so only who holds the key can know it. */
export function csrfToken(key: string): string {
  return createHmac("sha256", key).update("csrf").digest("hex");
}

/**
 * The session a request may act with: on safe methods (and a logout) the cookie's,
 * on a write only when the request carries the session's CSRF token.
 */
export function sessionFor(req: Request, safe: boolean): string | undefined {
  const key = sessionKey(req);
  if (!key || safe) return key;
  const sent = Buffer.from(req.get("x-csrftoken") ?? "");
  const expected = Buffer.from(csrfToken(key));
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? key : undefined;
}

/** Only same-site relative paths: a login must not redirect to another site. */
function safeNext(next: string | null, fallback: string): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : fallback;
}

export interface SessionDeps {
  db: Knex;
  identities: Identities;
  tokens: Tokens;
  operations: Operations;
  basePath: string;
  apiTitle: string;
}

export function loginPage(res: Response, d: SessionDeps, next: string, status = 200, error = "", username = ""): void {
  res.status(status).type("html").send(templates.login({ apiTitle: d.apiTitle, action: `${d.basePath}login/`, next, error, username }));
}

export async function login(req: Request, res: Response, d: SessionDeps, limits: ThrottleLimits): Promise<void> {
  const form = new URLSearchParams(Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "");
  const next = safeNext(form.get("next"), d.basePath);
  const username = form.get("username") ?? "";
  let who: Identity | null;
  try {
    who = await new AuthThrottle(d.db, limits).attempt({ username, address: req.ip, via: "login form" }, () => d.identities.byPassword(d.db, username, form.get("password") ?? ""));
  } catch (err) {
    if (!(err instanceof Throttled)) throw err;
    res.set("Retry-After", String(err.retryAfter));
    return loginPage(res, d, next, 429, `Too many failed login attempts for this user or from this address. Try again in ${err.wait}.`, username);
  }
  if (!who) return loginPage(res, d, next, 403, "Invalid username/password.", username);
  const expires = new Date(Date.now() + LIFETIME_MS);
  // The user's own write, as through the API: an operation whose actor they are.
  const actor = { userId: who.userId, username: who.username, requestId: requestId(res), context: "api", contextDetail: "login" };
  const key = await d.operations.run(actor, (op) => d.tokens.issue(op, who.userId, { write_enabled: false, expires: expires.toISOString(), description: SESSION_DESCRIPTION }));
  res.cookie(SESSION_COOKIE, key, { httpOnly: true, sameSite: "lax", path: d.basePath, expires });
  res.redirect(302, next);
}

export async function logout(req: Request, res: Response, d: SessionDeps): Promise<void> {
  const key = sessionKey(req);
  if (key) {
    await d.tokens.revoke(d.db, key);
    d.identities.forget();
  }
  res.clearCookie(SESSION_COOKIE, { path: d.basePath });
  res.redirect(302, d.basePath);
}
