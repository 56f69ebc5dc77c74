// Who may do what, as DRF's permission classes and Nautobot's object permissions decide it:
// anonymous reads only where exempt, writes only with a write-enabled token, and with object
// permissions the method's action on the model (superusers hold every one), narrowed to the
// rows the requester's constraints reach.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../descriptor.js";
import { HttpError, forbidden } from "../../errors.js";
import type { FilterPlan } from "../../query/filters.js";
import { actionOf, type Grants } from "../../features/index.js";
import type { Condition } from "../../features/index.js";
import type { Ctx } from "./context.js";

export const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** DRF's refusal of an anonymous request that needs a user. */
export const unauthenticated = () => new HttpError(403, "Authentication credentials were not provided.", "forbidden");

/**
 * Anonymous reads only where exempt; writes need a write-enabled token; with object
 * permissions, the requester must hold the method's action on the model (superusers hold
 * every one; an exempt view needs none), else only superusers touch users.
 */
async function authorize(ctx: Ctx, m: ModelDescriptor, action = actionOf(ctx.req.method)): Promise<void> {
  const { permissions, userModel, exemptView } = ctx.drf;
  const method = ctx.req.method;
  if (!ctx.identity) {
    const readable = (method === "GET" || method === "HEAD") && exemptView(m);
    if (!readable) throw unauthenticated();
    return;
  }
  if (!SAFE.has(method) && readOnly(ctx)) throw forbidden();
  if (!permissions) {
    if (m === userModel && !ctx.identity.isSuperuser) throw forbidden();
    return;
  }
  if (action === null || (action === "view" && exemptView(m))) return;
  if (!permissions.holds(await grantsOf(ctx), m, action)) throw forbidden();
}

async function grantsOf(ctx: Ctx): Promise<Grants> {
  ctx.grants ??= await ctx.drf.permissions!.grants(ctx.drf.db, ctx.identity!.userId, ctx.identity!.isSuperuser);
  return ctx.grants;
}

/** The condition on rows of `m` aliased `alias` that the requester's `action` constraints set (null: every row). */
function condition(ctx: Ctx, m: ModelDescriptor, action: string | null, alias: string): Condition | null {
  const { permissions, exemptView } = ctx.drf;
  if (!permissions || !ctx.grants || action === null || (action === "view" && exemptView(m))) return null;
  return permissions.condition(ctx.grants, m, action, alias);
}

/** The condition on rows `t0` of `m` that the requester's `action` constraints set (none: every row). */
function permitted(ctx: Ctx, m: ModelDescriptor, action: string | null): ((qb: Knex.QueryBuilder) => void) | undefined {
  const cond = condition(ctx, m, action, "t0");
  return cond ? (qb) => { qb.whereRaw(cond.sql, cond.bindings as Knex.RawBinding[]); } : undefined;
}

/** `where` narrowed to the rows the requester may `action`. */
function within(ctx: Ctx, m: ModelDescriptor, where: FilterPlan, action = actionOf(ctx.req.method)): FilterPlan {
  const narrow = permitted(ctx, m, action);
  return narrow ? { ...where, apply: (qb: Knex.QueryBuilder) => { where.apply(qb); narrow(qb); } } : where;
}

/** Whether the object `id` of `m` exists and the requester may `action` it (view it, by default). */
async function visible(ctx: Ctx, m: ModelDescriptor, id: string, action = "view"): Promise<boolean> {
  const { store, db } = ctx.drf;
  return store.isKey(m, id) && (await store.existing(db, m, [id], ctx.identity?.userId, permitted(ctx, m, action))).length > 0;
}

/**
 * Whether the requester holds only a read-only token. A browser session's token is one (so
 * its key in an Authorization header never writes, and no tool hands it out as a writing
 * token); the session itself writes, with its CSRF token.
 */
function readOnly(ctx: Ctx): boolean {
  return !!ctx.identity?.token && !ctx.identity.token.writeEnabled && !ctx.session;
}

/** The policy's permission: what every view asks before it reads or writes. */
export const permission = { authorize, grantsOf, condition, permitted, within, visible, readOnly };
export type Permission = typeof permission;
