// POST to an archive: a new record, 201 with the record as shown (a term's answer also
// carries its `Location`).
import { respond, type WpContext } from "../context.js";
import { writeTransaction } from "../write-transaction.js";
import { shown, writeActor } from "./record.js";
import { termNameFree } from "./term-names.js";

export async function createView(ctx: WpContext): Promise<void> {
  const { wp } = ctx;
  const m = ctx.model!;
  const who = wp.policy.permission.loggedIn(ctx.who);
  wp.policy.permission.checkCreate(who, m);
  const isTerm = m.wordpress!.kind === "term";
  const { id: _id, ...body } = ctx.params;
  const created = await writeTransaction(wp.operations, writeActor(ctx, m), m, async (op) => {
    if (isTerm) await termNameFree(wp.cat, op.trx, m, body);
    return shown(ctx, m, await wp.writer.create(op, m, body, who), op);
  });
  const headers: Record<string, string> = isTerm ? { Location: `${ctx.site.nsUrl}/${m.wordpress!.listKey}/${created.id}` } : {};
  respond(ctx, 201, created, headers);
}
