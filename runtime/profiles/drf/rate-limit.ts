// What a DRF request costs under rate limits (runtime/http/rate-limits.ts), read from its route
// and request: a write its elements (an array body's), a list the page its `limit` asks
// for, a GraphQL query the fields it selects (and a mutation its writes, as REST's would cost);
// charged to the user or the client's address.
import type { Request, Response } from "express";
import type { Identity } from "../../auth/identities.js";
import { price, requester, type Demand, type RateLimits } from "../../http/rate-limits.js";
import { contentType } from "../../http/request.js";
import { graphqlDemand } from "../../graphql/cost.js";
import type { DrfView } from "../../descriptor.js";
import type { Drf } from "./context.js";
import { SAFE } from "./permission.js";
import type { RouteMatch } from "./routes.js";

/** Views whose GET answers a page of rows. */
const PAGED = new Set<DrfView>(["list", "listing", "notes", "action"]);

/** Charges the request's cost to whoever makes it (`identity` null: its address). */
export function chargeRequest(drf: Drf, limits: RateLimits, req: Request, res: Response, match: RouteMatch | undefined, params: Map<string, string[]>, identity: Identity | null): Promise<void> {
  const cost = price(limits.settings, demand(drf, req, match, params));
  return limits.charge(res, requester(identity?.userId, req.ip), cost);
}

/** A request its authentication refused: a read of the client's address. */
export function chargeRefused(limits: RateLimits, req: Request, res: Response): Promise<void> {
  return limits.charge(res, requester(undefined, req.ip), price(limits.settings, { writes: 0 }));
}

function demand(drf: Drf, req: Request, match: RouteMatch | undefined, params: Map<string, string[]>): Demand {
  const view = match?.route.view;
  if (view === "graphql" && req.method === "POST") return graphqlCost(req);
  if (!SAFE.has(req.method)) return { writes: elements(req) };
  if (view && PAGED.has(view) && req.method === "GET") {
    const { limit } = drf.policy.paginator.params({ req, params });
    return { writes: 0, rows: limit ?? Infinity };
  }
  return { writes: 0 };
}

/** The elements of an array body (a bulk write, a batch of allocations); one for any other body. */
function elements(req: Request): number {
  const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
  if (!raw || contentType(req) !== "application/json" || !/^\s*\[/.test(raw.subarray(0, 64).toString("latin1"))) return 1;
  try {
    const body: unknown = JSON.parse(raw.toString("utf8"));
    return Array.isArray(body) ? Math.max(1, body.length) : 1;
  } catch {
    // Refused by the view as a parse error.
    return 1;
  }
}

/** The fields a GraphQL POST's query selects and the writes its mutations make, as the view reads its body; a read for one that is refused unread. */
function graphqlCost(req: Request): Demand {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
  const type = contentType(req);
  let query: unknown = type === "application/graphql" ? raw : undefined;
  let operationName: unknown;
  let variables: unknown;
  if (type === "application/json") {
    try {
      ({ query, operationName, variables } = JSON.parse(raw) as { query?: unknown; operationName?: unknown; variables?: unknown });
    } catch {
      return { writes: 0 };
    }
  }
  if (typeof query !== "string") return { writes: 0 };
  return graphqlDemand(query, typeof operationName === "string" ? operationName : undefined, variables) ?? { writes: 0 };
}
