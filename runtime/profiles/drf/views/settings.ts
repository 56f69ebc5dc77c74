// The requester's own settings (user-settings.ts): GET reads them, PATCH merges a JSON object into them (Nautobot's `deepmerge`).
import type { Knex } from "knex";
import { forbidden } from "../../../errors.js";
import type { Ctx } from "../context.js";
import { unauthenticated } from "../permission.js";
import { actor, readJson } from "../request.js";
import { expectObject } from "../bulk.js";
import { deepmerge } from "../user-settings.js";
import { only } from "./allow.js";

export function settings(ctx: Ctx): Promise<void> | void {
  const { db, operations, policy } = ctx.drf;
  const users = ctx.drf.userModel!;
  const column = ctx.drf.settingsColumn!;
  // The operation is named for the route, as Nautobot names its view.
  const name = ctx.match.route.path.split("/")[1];
  return only(ctx, ["GET", "PATCH"], async () => {
    const identity = ctx.identity;
    if (!identity) throw unauthenticated();
    const own = (q: Knex.QueryBuilder) => q.where("id", identity.userId);
    if (ctx.req.method !== "PATCH") {
      const row = await own(db(users.table)).first(column);
      return policy.renderer(ctx, 200, row?.[column] ?? {});
    }
    if (policy.permission.readOnly(ctx)) throw forbidden();
    const body = expectObject(readJson(ctx));
    const merged = await operations.run(await actor(ctx, users, name), async ({ trx }) => {
      const row = await own(trx(users.table)).forUpdate().first(column);
      const next = deepmerge((row?.[column] as Record<string, unknown> | null) ?? {}, body);
      await own(trx(users.table)).update({ [column]: JSON.stringify(next) });
      return next;
    });
    policy.renderer(ctx, 200, merged);
  });
}
