// A browser's sign-in (browser-session.ts): the login page and form, and the sign-out.
import type { Ctx } from "../context.js";
import { login, loginPage, logout } from "../browser-session.js";
import { notAllowed, only } from "./allow.js";

/** Where a login goes next: a path of this site only, else the API root. */
function nextParam(ctx: Ctx): string {
  const next = ctx.params.get("next")?.at(-1) ?? "";
  return next.startsWith("/") && !next.startsWith("//") ? next : ctx.drf.api.basePath;
}

export function signIn(ctx: Ctx): Promise<void> | void {
  const sessions = ctx.drf.sessions!;
  return only(ctx, ["GET", "POST"], () => (ctx.req.method === "POST" ? login(ctx.req, ctx.res, sessions, ctx.drf.config) : loginPage(ctx.res, sessions, nextParam(ctx))));
}

export function signOut(ctx: Ctx): Promise<void> {
  // POST only: a link or image elsewhere must not be able to log a browser out.
  ctx.res.set("Allow", "POST, OPTIONS");
  if (ctx.req.method !== "POST") throw notAllowed(ctx.req.method);
  return logout(ctx.req, ctx.res, ctx.drf.sessions!);
}
