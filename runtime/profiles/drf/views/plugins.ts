// `plugins/` and `plugins/installed-plugins/`: the enabled apps, as Nautobot's
// PluginsAPIRootView and InstalledPluginsAPIView answer (its keys, its "verison" typo included,
// which 1.x clients may read). A disabled app is in neither.
import { forbidden } from "../../../errors.js";
import { unauthenticated } from "../permission.js";
import type { Ctx } from "../context.js";
import { only } from "./allow.js";

/** The list of installed apps' link first, then each enabled app's root, keyed by its name; open as the API root is. */
export function plugins(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], () => {
    const { policy, plugins: enabled } = ctx.drf;
    policy.renderer(ctx, 200, {
      "installed-plugins": `${ctx.apiUrl}${ctx.match.route.path}installed-plugins/`,
      ...Object.fromEntries(enabled.map((p) => [p.name, `${ctx.apiUrl}${p.base}/`])),
    });
  });
}

/** Each enabled app as its PluginConfig says it; for staff only (DRF's IsAdminUser), here superusers. */
export function installedPlugins(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], () => {
    if (!ctx.identity) throw unauthenticated();
    if (!ctx.identity.isSuperuser) throw forbidden();
    ctx.drf.policy.renderer(ctx, 200, ctx.drf.plugins.map((p) => ({
      name: p.verboseName, package: p.label, author: p.author, author_email: p.authorEmail, description: p.description,
      verison: p.version, version: p.version,
    })));
  });
}
