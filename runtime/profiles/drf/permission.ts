// Who may use a view, as DRF's permission classes decide it: anonymous reads only where
// exempt, writes only with a write-enabled token, and with object permissions the method's
// action on the model (superusers hold every one). Which rows they then reach is not the
// profile's to say: the engine narrows every read and write of the request's operation to
// them (features/permissions/scope.ts).
import type { ModelDescriptor } from "../../descriptor.js";
import { HttpError, forbidden } from "../../errors.js";
import { actionOf, type Grants } from "../../features/index.js";
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

/**
 * Whether the requester holds only a read-only token. A browser session's token is one (so
 * its key in an Authorization header never writes, and no tool hands it out as a writing
 * token); the session itself writes, with its CSRF token.
 */
function readOnly(ctx: Ctx): boolean {
  return !!ctx.identity?.token && !ctx.identity.token.writeEnabled && !ctx.session;
}

/** The policy's permission: what every view asks before it reads or writes. */
export const permission = { authorize, grantsOf, readOnly };
export type Permission = typeof permission;
