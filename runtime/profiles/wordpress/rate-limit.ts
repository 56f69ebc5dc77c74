// What a WordPress-style request costs under rate limits (runtime/http/rate-limits.ts), read from
// the view its route chose: an archive the page its `per_page` asks for, a create, update or
// delete a write, anything else (an unknown route too) a read; charged to the requester or, for
// an anonymous request, the client's address. Over budget is WordPress's 429 error shape.
import type { Request, Response } from "express";
import { price, requester, type Demand, type RateLimited, type RateLimits } from "../../http/rate-limits.js";
import { WpError } from "./errors.js";
import type { WpRequest } from "./context.js";
import type { ViewKind } from "./views/index.js";

const WRITES = new Set<ViewKind>(["create", "update", "delete", "app-password"]);

/** Charges what `view` (none: no route took the request) costs `base`'s requester, if the API limits rates. */
export async function chargeRequest(base: WpRequest, view: ViewKind | undefined): Promise<void> {
  const limits = base.wp.limits;
  if (!limits) return;
  await limits.charge(base.res, requester(base.who?.userId, base.req.ip), price(limits.settings, demand(base, view)));
}

/** A request its authentication refused: a read of the client's address. */
export async function chargeRefused(limits: RateLimits | undefined, req: Request, res: Response): Promise<void> {
  if (limits) await limits.charge(res, requester(undefined, req.ip), price(limits.settings, { writes: 0 }));
}

function demand(base: WpRequest, view: ViewKind | undefined): Demand {
  if (view && WRITES.has(view)) return { writes: 1 };
  if (view !== "archive") return { writes: 0 };
  let rows: number;
  try {
    rows = base.wp.policy.paginator.paging(base.params).perPage;
  } catch {
    // Refused by the view as an invalid parameter: priced as the default page.
    rows = base.wp.policy.paginator.paging({}).perPage;
  }
  return { writes: 0, rows };
}

/** Over budget, in WordPress's error shape (`Retry-After` is already set). */
export function tooManyRequests(err: RateLimited): WpError {
  return new WpError(429, "rest_too_many_requests", `Too many requests. Try again in ${err.wait}.`);
}
