// GET (and HEAD) of one record, by id or by slug.
import { respond, type WpContext } from "../context.js";
import { findRecord, shownText } from "./record.js";

export async function readView(ctx: WpContext): Promise<void> {
  const m = ctx.model!;
  const row = await findRecord(ctx);
  ctx.wp.policy.permission.checkRead(ctx.who, m, row);
  respond(ctx, 200, await shownText(ctx, m, row.id));
}
