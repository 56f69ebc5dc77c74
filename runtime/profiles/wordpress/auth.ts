// Who is asking, WordPress-style: HTTP Basic with a per-user application password (kept
// hashed in the model the API names as `appPasswords`), or the identity API's token header.
// Gives a Requester with its role; what a role may do is decided by the callers. Failed
// application passwords count towards the limits of auth/throttle.ts.
import type { Response } from "express";
import type { Knex } from "knex";
import { storedColumn, type ModelDescriptor } from "../../descriptor.js";
import type { Identities } from "../../auth/identities.js";
import { parseBasic } from "../../auth/identities.js";
import { hashPassword, randomHex, verifyPassword } from "../../auth/passwords.js";
import { AuthThrottle, Throttled, type ThrottleLimits } from "../../auth/throttle.js";
import { WpError } from "./errors.js";

/** `editor` may do anything; `contributor` writes its own unpublished posts. */
export interface Requester {
  userId: string;
  username: string;
  role: "editor" | "contributor";
}

const col = (m: ModelDescriptor, name: string) => storedColumn(m.fields.find((f) => f.name === name)!)!;

// The command line makes application passwords but never identifies anyone: it gives no limits.
const UNLIMITED: ThrottleLimits = { authFailureLimit: 0, authFailureWindow: 0 };

export class WpAuth {
  private readonly throttle: AuthThrottle;

  constructor(private readonly db: Knex, private readonly identities: Identities | undefined, private readonly passwords: ModelDescriptor | undefined,
    limits: ThrottleLimits = UNLIMITED) {
    this.throttle = new AuthThrottle(db, limits);
  }

  /** `address` is the client's (`req.ip`); `res` receives `Retry-After` when the attempt is throttled. */
  async identify(header: string | undefined, address: string | undefined, res: Response): Promise<Requester | null> {
    if (!header) return null;
    if (!this.identities) throw invalidAuth();
    const token = /^Token\s+(\S+)$/i.exec(header);
    if (token) {
      const found = await this.identities.byToken(this.db, token[1]);
      if ("refused" in found) throw invalidAuth();
      const i = found.identity;
      return { userId: i.userId, username: i.username, role: i.isSuperuser ? "editor" : "contributor" };
    }
    const basic = parseBasic(header);
    if (!basic || !this.passwords) throw invalidAuth();
    let who: Requester | null;
    try {
      who = await this.throttle.attempt({ username: basic.username, address }, () => this.byAppPassword(basic.username, basic.password));
    } catch (err) {
      if (!(err instanceof Throttled)) throw err;
      res.set("Retry-After", String(err.retryAfter));
      throw new WpError(429, "rest_too_many_requests", `Too many failed login attempts for this user or from this address. Try again in ${err.wait}.`);
    }
    if (!who) throw new WpError(401, "incorrect_password", "The provided password is an invalid application password.");
    return who;
  }

  private async byAppPassword(username: string, password: string): Promise<Requester | null> {
    const users = this.identities!.userModel;
    const user = await this.db(users.table).select("id").where(col(users, "username"), username).first();
    if (!user) return null;
    const p = this.passwords!;
    const rows = await this.db(p.table).select("id", `${col(p, "password")} as hash`).where(col(p, "user"), user.id);
    const supplied = password.replace(/\s+/g, "");
    for (const row of rows) {
      if (await verifyPassword(supplied, row.hash)) {
        await this.db(p.table).where("id", row.id).update({ [col(p, "last_used")]: this.db.fn.now() });
        const identity = await this.identities!.byId(this.db, user.id);
        if (!identity) return null;
        return { userId: identity.userId, username: identity.username, role: identity.isSuperuser ? "editor" : "contributor" };
      }
    }
    return null;
  }

  /** Creates an application password for a user; gives the plain password once. */
  async create(userId: string, name: string): Promise<Record<string, unknown>> {
    const p = this.passwords!;
    const plain = randomHex(24);
    const [row] = await this.db(p.table)
      .insert({ [col(p, "user")]: userId, [col(p, "name")]: name, [col(p, "password")]: await hashPassword(plain) })
      .returning(["id", col(p, "created")]);
    return { uuid: String(row.id), app_id: "", name, password: plain.replace(/(.{4})(?!$)/g, "$1 "), created: row[col(p, "created")], last_used: null, last_ip: null };
  }

  /** A username → user id lookup, for the command line. */
  async userId(username: string): Promise<string | null> {
    const users = this.identities!.userModel;
    const row = await this.db(users.table).select("id").where(col(users, "username"), username).first();
    return row?.id ?? null;
  }
}

function invalidAuth(): WpError {
  return new WpError(401, "rest_not_logged_in", "The provided credentials are invalid.");
}
