// Throttling of password guessing, as django-axes counts it with the lockout parameters
// [username, address] and [address]: after `authFailureLimit` failed attempts for a username
// from one client address, or from that address for any usernames, within
// `authFailureWindow` seconds, further attempts for that user from that address, or any from
// that address, are refused before the password is even checked, whether it is right or not.
// A user's own logins from elsewhere are untouched: nobody can hold another user's password
// logins off by sending wrong passwords for them. Failures are rows in the database, so every
// server instance shares them. Each profile turns `Throttled` into its own 429.
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import type { Config } from "../config.js";
import { securityLog } from "../http/request-log.js";

export type ThrottleLimits = Pick<Config, "authFailureLimit" | "authFailureWindow"> & Partial<Pick<Config, "logRequests" | "logLevel">>;

/** Who is trying a password: the username given and the client's address (Express's `req.ip`), and through what. */
export interface Attempt {
  username: string;
  address: string | undefined;
  /** What the password is for, as the security log names it: `login form`, `token provisioning`, `application password`. */
  via: string;
}

/** The attempt was refused untried; `retryAfter` is whole seconds until a failure ages out (≥ 1). */
export class Throttled extends Error {
  constructor(readonly retryAfter: number) {
    super(`too many failed attempts; retry after ${retryAfter} s`);
  }

  /** The wait in words: "1 second", "300 seconds". */
  get wait(): string {
    return `${this.retryAfter} second${this.retryAfter === 1 ? "" : "s"}`;
  }
}

const TABLE = "armature_auth_failures";
const digest = (value: string) => createHash("sha256").update(value).digest("hex");

// One statement prunes what the window left behind, finds the failure that blocks (the
// limit-th newest for the user from this address, or from the address) and, when none does,
// records this attempt as a failure before the password is checked. Recording first means parallel guesses
// cannot all pass a check made before any of them failed.
const BEGIN = `
WITH pruned AS (
  DELETE FROM ${TABLE} WHERE at <= now() - ?::int * interval '1 second'
), blocking AS (
  SELECT greatest(
    (SELECT at FROM ${TABLE} WHERE attempt_key = ? AND at > now() - ?::int * interval '1 second' ORDER BY at DESC OFFSET ?::int LIMIT 1),
    (SELECT at FROM ${TABLE} WHERE address_key = ? AND at > now() - ?::int * interval '1 second' ORDER BY at DESC OFFSET ?::int LIMIT 1)
  ) AS at
), mine AS (
  INSERT INTO ${TABLE} (attempt_key, address_key) SELECT ?, ? FROM blocking WHERE blocking.at IS NULL RETURNING id
)
SELECT (SELECT id FROM mine) AS id,
  ceil(extract(epoch FROM blocking.at + ?::int * interval '1 second' - now()))::int AS retry_after
FROM blocking`;

export class AuthThrottle {
  constructor(private readonly db: Knex, private readonly limits: ThrottleLimits) {}

  /**
   * Runs `verify` (a password check giving whom it identified, or null) unless the user from
   * this address, or the address, is throttled, which throws `Throttled`. A failure stays counted; a success
   * withdraws the attempt, so only failures ever count.
   */
  async attempt<T>(who: Attempt, verify: () => Promise<T | null>): Promise<T | null> {
    try {
      const found = await this.checked(who, verify);
      this.event(who, found === null ? "failure" : "success");
      return found;
    } catch (err) {
      if (err instanceof Throttled) this.event(who, "throttled");
      throw err;
    }
  }

  /** A security event of the attempt: who (by the name given) from where, through what, and how it ended. */
  private event(who: Attempt, outcome: "success" | "failure" | "throttled"): void {
    const log = this.limits.logRequests && this.limits.logLevel ? securityLog({ logRequests: true, logLevel: this.limits.logLevel }) : undefined;
    log?.[outcome === "success" ? "info" : "warn"]({ event: "password", via: who.via, outcome, user: who.username, address: who.address ?? null }, "security");
  }

  private async checked<T>(who: Attempt, verify: () => Promise<T | null>): Promise<T | null> {
    const { authFailureLimit: limit, authFailureWindow: window } = this.limits;
    if (limit <= 0 || window <= 0) return verify();
    // The pair as one key: the username's digest cannot be told from the address's.
    const pair = digest(`${digest(who.username)}:${who.address ?? ""}`);
    const address = who.address === undefined ? null : digest(who.address);
    const { rows } = await this.db.raw(BEGIN, [window, pair, window, limit - 1, address, window, limit - 1, pair, address, window]);
    const { id, retry_after: retryAfter } = rows[0] as { id: string | null; retry_after: number | null };
    if (id === null) throw new Throttled(retryAfter!);
    const found = await verify();
    if (found !== null) await this.db(TABLE).where("id", id).del();
    return found;
  }
}
