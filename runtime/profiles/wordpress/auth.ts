// Application passwords, WordPress-style: kept hashed in the model the API names as
// `appPasswords`, made for a user (the plain password shown once), and verified for HTTP
// Basic (authenticators.ts). Also the Requester every authenticator gives, with its role;
// what a role may do is decided by the permission policy (permissions.ts).
import type { Knex } from "knex";
import { storedColumn, type ModelDescriptor } from "../../descriptor.js";
import type { Identities } from "../../auth/identities.js";
import { hashPassword, randomHex, verifyPassword } from "../../auth/passwords.js";

/** `editor` may do anything; `contributor` writes its own unpublished posts. */
export interface Requester {
  userId: string;
  username: string;
  role: "editor" | "contributor";
}

const col = (m: ModelDescriptor, name: string) => storedColumn(m.fields.find((f) => f.name === name)!)!;

export class WpAuth {
  constructor(private readonly db: Knex, private readonly identities: Identities | undefined, private readonly passwords: ModelDescriptor | undefined) {}

  /** The user `username` as a requester, when `password` is one of their application passwords. */
  async verify(username: string, password: string): Promise<Requester | null> {
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
