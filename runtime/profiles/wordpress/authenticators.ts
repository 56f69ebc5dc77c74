// Who is asking, as a list of authenticators tried in turn (DRF's authentication classes):
// the identity API's token header, then HTTP Basic with an application password. Each
// answers for its own scheme and refuses bad credentials itself; a header no authenticator
// takes is refused as invalid, and no header at all is an anonymous request.
import type { Response } from "express";
import type { Knex } from "knex";
import { parseBasic, type Identities } from "../../auth/identities.js";
import { AuthThrottle, Throttled, type ThrottleLimits } from "../../auth/throttle.js";
import type { Requester, WpAuth } from "./auth.js";
import { WpError } from "./errors.js";

export interface Authenticator {
  /**
   * The requester `header` names, or undefined when the header is not this authenticator's
   * scheme. `address` is the client's (`req.ip`); `res` receives headers a refusal carries.
   */
  authenticate(header: string, address: string | undefined, res: Response): Promise<Requester | undefined>;
}

function invalidAuth(): WpError {
  return new WpError(401, "rest_not_logged_in", "The provided credentials are invalid.");
}

/** The requester of an `Authorization` header; null without one. */
export async function identify(authenticators: readonly Authenticator[], header: string | undefined, address: string | undefined, res: Response): Promise<Requester | null> {
  if (!header) return null;
  for (const a of authenticators) {
    const who = await a.authenticate(header, address, res);
    if (who) return who;
  }
  throw invalidAuth();
}

/** `Authorization: Token <key>`: a token of the identity API; a superuser is an editor. */
export function tokenAuthenticator(db: Knex, identities: Identities): Authenticator {
  return {
    async authenticate(header) {
      const token = /^Token\s+(\S+)$/i.exec(header);
      if (!token) return undefined;
      const found = await identities.byToken(db, token[1]);
      if ("refused" in found) throw invalidAuth();
      const i = found.identity;
      return { userId: i.userId, username: i.username, role: i.isSuperuser ? "editor" : "contributor" };
    },
  };
}

/**
 * HTTP Basic with an application password. Failed passwords count towards the limits of
 * auth/throttle.ts; a throttled attempt is refused with `Retry-After`.
 */
export function appPasswordAuthenticator(passwords: WpAuth, throttle: AuthThrottle): Authenticator {
  return {
    async authenticate(header, address, res) {
      const basic = parseBasic(header);
      if (!basic) return undefined;
      let who: Requester | null;
      try {
        who = await throttle.attempt({ username: basic.username, address, via: "application password" }, () => passwords.verify(basic.username, basic.password));
      } catch (err) {
        if (!(err instanceof Throttled)) throw err;
        res.set("Retry-After", String(err.retryAfter));
        throw new WpError(429, "rest_too_many_requests", `Too many failed login attempts for this user or from this address. Try again in ${err.wait}.`);
      }
      if (!who) throw new WpError(401, "incorrect_password", "The provided password is an invalid application password.");
      return who;
    },
  };
}

/** The API's authenticators: none without an identity API, Basic only where it keeps application passwords. */
export function authenticators(db: Knex, identities: Identities | undefined, passwords: WpAuth | undefined, limits: ThrottleLimits): Authenticator[] {
  if (!identities) return [];
  const list = [tokenAuthenticator(db, identities)];
  if (passwords) list.push(appPasswordAuthenticator(passwords, new AuthThrottle(db, limits)));
  return list;
}
