// The API root (its apps and root links) and each app's root (the routes below it).
import type { Ctx } from "../context.js";
import { only } from "./allow.js";

export function root(ctx: Ctx): Promise<void> | void {
  const { api, policy } = ctx.drf;
  return only(ctx, ["GET"], () => {
    const links = [...api.apps, ...api.rootLinks].sort();
    policy.renderer(ctx, 200, Object.fromEntries(links.map((a) => [a, `${ctx.apiUrl}${a}/`])));
  });
}

export function appRoot(ctx: Ctx): Promise<void> | void {
  const app = ctx.match.route.app!;
  return only(ctx, ["GET"], () => {
    ctx.drf.policy.renderer(ctx, 200, Object.fromEntries(ctx.drf.appRoutes.get(app)!.map((r) => [r, `${ctx.apiUrl}${app}/${r}/`])));
  });
}
