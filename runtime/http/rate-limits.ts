// Rate limits by cost: each requester (a user, whichever token or session they come with; an
// anonymous request's client address) has a budget refilled at a steady rate, and a request
// takes what its profile prices it at (`price`). Takes the settings and the database; gives the
// charge, the IETF draft's RateLimit-* headers on the answer, and `RateLimited` for a request
// over budget, which each profile words as its own 429. The buckets are rows of
// `armature_rate_limits`, charged by one upsert, so every worker and instance sharing the
// database shares them; a bucket the refill has made whole is the same as none and is deleted.
import type { Request, Response } from "express";
import type { Knex } from "knex";

export interface RateLimitSettings {
  /** RATE_LIMIT_ENABLED=1 or 0; unset: the command decides (`run`, the demo, limits; `serve` does not). */
  enabled?: boolean;
  /** RATE_LIMIT_BUDGET: the units a requester may spend at once (the bucket's size). */
  budget: number;
  /** RATE_LIMIT_REFILL: units given back each second; 0 gives a spent budget back whole an hour after it was first charged. */
  refill: number;
  /** RATE_LIMIT_COST_READ: a read (a detail, a document, anything not priced otherwise). */
  read: number;
  /** RATE_LIMIT_COST_WRITE: a write (POST, PUT, PATCH, DELETE), each element of a bulk one. */
  write: number;
  /** RATE_LIMIT_PAGE_ROWS: a list costs one unit more for each this many rows its page may hold. */
  pageRows: number;
  /** RATE_LIMIT_COST_FIELD: a GraphQL query costs this much more for each field it selects. */
  field: number;
}

export const RATE_LIMIT_DEFAULTS: Omit<RateLimitSettings, "enabled"> = { budget: 600, refill: 10, read: 1, write: 10, pageRows: 10, field: 1 };

/** With no refill, how long a bucket lives from its first charge: its budget is then whole again. */
const NO_REFILL_SECONDS = 3600;

/** What a request asks of the engine, as its profile reads it. */
export interface Demand {
  /** Writes it makes: 0 for a read, 1 for a write, a bulk write's element count. */
  writes: number;
  /** The rows a page of a list may hold; Infinity for a list without a bound. */
  rows?: number;
  /** The fields a GraphQL query selects. */
  fields?: number;
}

/** What a request costs; never more than the whole budget, so that any request can be served once the bucket is full. */
export function price(s: RateLimitSettings, d: Demand): number {
  const base = d.writes > 0 ? s.write * d.writes : s.read;
  const rows = d.rows === undefined || s.pageRows <= 0 ? 0 : Math.ceil(d.rows / s.pageRows);
  return Math.min(s.budget, base + rows + (d.fields ?? 0) * s.field);
}

/** A request over budget: `retryAfter` is whole seconds until its cost is available again (≥ 1). */
export class RateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super(`rate limited; retry after ${retryAfter} s`);
  }

  /** The wait in words, as DRF's Throttled says it: "1 second", "30 seconds". */
  get wait(): string {
    return `${this.retryAfter} second${this.retryAfter === 1 ? "" : "s"}`;
  }
}

/** Whose budget a request spends: its user's, or for an anonymous request its client address's. */
export function requester(userId: string | undefined, address: string | undefined): string {
  return userId !== undefined ? `user:${userId}` : `address:${address ?? ""}`;
}

const TABLE = "armature_rate_limits";

// One statement a request. It deletes at most two buckets expired since (never the one it
// charges: a row changed twice by one statement is undefined), so expired rows never outnumber
// the requests that made them; then it inserts the requester's bucket, already charged (a cost is
// never over the budget), or takes the cost from the one there if what the refill has brought it
// covers the cost, and says which. `expires` is when the bucket is whole again.
const CHARGE = `
WITH expired AS (
  DELETE FROM ${TABLE} WHERE bucket IN (
    SELECT bucket FROM ${TABLE} WHERE expires < now() AND bucket <> ?::text ORDER BY expires LIMIT 2 FOR UPDATE SKIP LOCKED)
)
INSERT INTO ${TABLE} AS b (bucket, tokens, at, expires, admitted)
VALUES (?::text, ?::float8, now(), now() + ?::float8 * interval '1 second', true)
ON CONFLICT (bucket) DO UPDATE SET (tokens, at, expires, admitted) = (
  SELECT n.tokens, now(),
    CASE WHEN p.refill > 0 THEN now() + (p.budget - n.tokens) / p.refill * interval '1 second'
      WHEN b.expires < now() THEN now() + ${NO_REFILL_SECONDS} * interval '1 second' ELSE b.expires END,
    n.admitted
  FROM (SELECT ?::float8 AS budget, ?::float8 AS refill, ?::float8 AS cost) p,
    LATERAL (SELECT CASE WHEN b.expires < now() THEN p.budget
      ELSE least(p.budget, b.tokens + greatest(0, extract(epoch FROM now() - b.at)) * p.refill) END AS left) a,
    LATERAL (SELECT a.left >= p.cost AS admitted, CASE WHEN a.left >= p.cost THEN a.left - p.cost ELSE a.left END AS tokens) n
)
RETURNING tokens, admitted, greatest(0, extract(epoch FROM expires - now()))::float8 AS reset`;

export class RateLimits {
  constructor(private readonly db: Knex, readonly settings: RateLimitSettings) {}

  /** The limits `settings` ask for, or none when they are off. */
  static of(db: Knex, settings: RateLimitSettings): RateLimits | undefined {
    return settings.enabled ? new RateLimits(db, settings) : undefined;
  }

  /**
   * Charges `who` `cost` units and sets the RateLimit-* headers on `res`; throws `RateLimited`
   * (with `Retry-After` set) when what is left does not cover the cost, which is then not taken.
   */
  async charge(res: Response, who: string, cost: number): Promise<void> {
    const { budget, refill } = this.settings;
    const fresh = refill > 0 ? cost / refill : NO_REFILL_SECONDS;
    const { rows } = await this.db.raw(CHARGE, [who, who, budget - cost, fresh, budget, refill, cost]);
    const { tokens, admitted, reset } = rows[0] as { tokens: number; admitted: boolean; reset: number };
    res.set("RateLimit-Limit", String(budget));
    res.set("RateLimit-Remaining", String(Math.max(0, Math.floor(tokens + 1e-9))));
    res.set("RateLimit-Reset", String(Math.ceil(reset - 1e-9)));
    if (admitted) return;
    const retryAfter = Math.max(1, Math.ceil(refill > 0 ? (cost - tokens) / refill - 1e-9 : reset));
    res.set("Retry-After", String(retryAfter));
    throw new RateLimited(retryAfter);
  }
}

/**
 * For an answer refused before its requester was charged (a body over BODY_LIMIT or unreadable,
 * an API version not served): charges the client's address a read, so that every answer of an
 * API carries the RateLimit headers while limits are on, and an address over budget is refused
 * as such. Gives what to answer with: `err`, or the address's `RateLimited`. A charge that fails
 * (the database away) leaves `err` as it was.
 */
export async function chargeUnread(limits: RateLimits | undefined, req: Request, res: Response, err: unknown): Promise<unknown> {
  if (!limits || err instanceof RateLimited || res.headersSent || res.get("RateLimit-Limit") !== undefined) return err;
  try {
    await limits.charge(res, requester(undefined, req.ip), price(limits.settings, { writes: 0 }));
    return err;
  } catch (refused) {
    return refused instanceof RateLimited ? refused : err;
  }
}

/** The settings from RATE_LIMIT_*; `number` reads a whole number setting as the configuration does. */
export function rateLimitsFromEnv(number: (name: string, fallback: number) => number, flag: (name: string) => boolean | undefined): RateLimitSettings {
  const d = RATE_LIMIT_DEFAULTS;
  const budget = number("RATE_LIMIT_BUDGET", d.budget);
  if (budget < 1) throw new Error("RATE_LIMIT_BUDGET must be 1 or more");
  return {
    enabled: flag("RATE_LIMIT_ENABLED"),
    budget,
    refill: number("RATE_LIMIT_REFILL", d.refill),
    read: number("RATE_LIMIT_COST_READ", d.read),
    write: number("RATE_LIMIT_COST_WRITE", d.write),
    pageRows: number("RATE_LIMIT_PAGE_ROWS", d.pageRows),
    field: number("RATE_LIMIT_COST_FIELD", d.field),
  };
}
