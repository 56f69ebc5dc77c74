// `status/`: what the server runs, as Nautobot's status view reports it.
import type { Ctx } from "../context.js";
import { unauthenticated } from "../permission.js";
import { only } from "./allow.js";

export function status(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], async () => {
    const { api, db, policy } = ctx.drf;
    if (!ctx.identity) throw unauthenticated();
    const dbVersion = (await db.raw("SHOW server_version")).rows[0].server_version;
    // The original's keys first, in its order; workers are Nautobot's background queues, of which this server runs none.
    const claimed = Object.fromEntries(Object.entries({
      ...(api.settings.STATUS as Record<string, string> | undefined),
      "installed-apps": Object.fromEntries(api.apps.map((a) => [a, null])),
      plugins: Object.fromEntries(ctx.drf.plugins.map((p) => [p.label, p.version])),
    }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    policy.renderer(ctx, 200, {
      ...claimed,
      "rq-workers-running": 0,
      "celery-workers-running": 0,
      "armature-version": "0.1.0",
      "api-versions": api.versions.supported,
      "node-version": process.version,
      "database-version": dbVersion,
    });
  });
}
