// Who is asking: looks up users and tokens in the models an API names in its `auth`
// section (columns found through their descriptors, never by table name). Gives an
// Identity or the reason it was refused; deciding what the identity may do is not here.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { verifyPassword } from "./passwords.js";
import { prepared } from "../db/prepared.js";
import type { TokenProblem } from "../problems.js";

export interface Identity {
  userId: string;
  username: string;
  isSuperuser: boolean;
  /** The token used, when the request came with one. */
  token?: { id: string; writeEnabled: boolean };
}

/** A token found, or why none is: a problem each profile words (runtime/problems.ts). */
export type Lookup = { identity: Identity } | { refused: TokenProblem };

/**
 * How long a token found valid is taken on trust before the database is asked again: the
 * bound on how late another instance notices a revoked, expired or deactivated token. This
 * instance forgets at once whatever it writes to users or tokens (see `forget`).
 */
export const TOKEN_TRUST_MS = 1000;
/** Tokens remembered at most; beyond it the oldest are dropped. */
const MAX_TRUSTED = 10_000;

export class Identities {
  private readonly users: ModelDescriptor;
  private readonly tokens?: ModelDescriptor;
  /** Tokens found valid, by key, until the time (ms) they must be checked again. */
  private readonly trusted = new Map<string, { identity: Identity; until: number }>();
  private tokenCheckSql?: string;

  constructor(private readonly index: ModelIndex) {
    const auth = index.api.auth;
    if (!auth) throw new Error(`API ${index.api.name} has no auth section`);
    this.users = index.model(auth.users);
    if (auth.tokens) this.tokens = index.model(auth.tokens);
  }

  get userModel(): ModelDescriptor { return this.users; }
  get tokenModel(): ModelDescriptor | undefined { return this.tokens; }

  private c(m: ModelDescriptor, field: string): string {
    return this.index.column(m, field);
  }

  private userColumns(alias: string) {
    const u = this.users;
    return [
      `${alias}.id as user_id`,
      `${alias}.${this.c(u, "username")} as username`,
      `${alias}.${this.c(u, "is_active")} as is_active`,
      `${alias}.${this.c(u, "is_superuser")} as is_superuser`,
    ];
  }

  /** Drops every trusted token: a user or token changed here. */
  forget(): void {
    this.trusted.clear();
  }

  async byToken(db: Knex, key: string): Promise<Lookup> {
    if (!this.tokens) return { refused: { code: "invalid_token" } };
    const now = Date.now();
    const known = this.trusted.get(key);
    if (known && known.until > now) return { identity: known.identity };
    const { rows: [row] } = await prepared(db.raw(this.tokenCheck(db, this.tokens), [key]));
    if (!row) return { refused: { code: "invalid_token" } };
    if (row.expired) return { refused: { code: "token_expired" } };
    if (!row.is_active) return { refused: { code: "user_inactive" } };
    const identity: Identity = {
      userId: row.user_id, username: row.username, isSuperuser: row.is_superuser,
      token: { id: row.token_id, writeEnabled: row.write_enabled },
    };
    const remaining = row.remaining_ms === null ? Infinity : Number(row.remaining_ms);
    if (this.trusted.size >= MAX_TRUSTED) this.trusted.delete(this.trusted.keys().next().value!);
    this.trusted.delete(key);
    this.trusted.set(key, { identity, until: now + Math.min(TOKEN_TRUST_MS, remaining) });
    return { identity };
  }

  /** The statement that checks a token, its key its one value: built once, not at each check. */
  private tokenCheck(db: Knex, t: ModelDescriptor): string {
    if (this.tokenCheckSql !== undefined) return this.tokenCheckSql;
    const expires = `t.${this.c(t, "expires")}`;
    const { sql } = db(`${t.table} as t`)
      .join(`${this.users.table} as u`, `u.id`, `t.${this.c(t, "user")}`)
      .select("t.id as token_id", `t.${this.c(t, "write_enabled")} as write_enabled`,
        db.raw(`(${expires} IS NOT NULL AND ${expires} <= now()) as expired`),
        // Measured by the database's clock, so the two clocks need not agree.
        db.raw(`extract(epoch from ${expires} - now()) * 1000 as remaining_ms`), ...this.userColumns("u"))
      .where(`t.${this.c(t, "key")}`, "")
      .limit(1, { skipBinding: true })
      .toSQL();
    return this.tokenCheckSql = sql;
  }

  async byPassword(db: Knex, username: string, password: string): Promise<Identity | null> {
    const u = this.users;
    const row = await db(`${u.table} as u`).select(...this.userColumns("u"), `u.${this.c(u, "password")} as password`)
      .where(`u.${this.c(u, "username")}`, username).first();
    if (!row || !row.is_active || !(await verifyPassword(password, row.password))) return null;
    return { userId: row.user_id, username: row.username, isSuperuser: row.is_superuser };
  }

  async byId(db: Knex, userId: string): Promise<Identity | null> {
    const row = await db(`${this.users.table} as u`).select(...this.userColumns("u")).where("u.id", userId).first();
    if (!row || !row.is_active) return null;
    return { userId: row.user_id, username: row.username, isSuperuser: row.is_superuser };
  }
}

/** `Basic base64(user:pass)` → the pair, or null. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? "");
  if (!m) return null;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
