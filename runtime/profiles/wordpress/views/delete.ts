// DELETE of one record, by id or by slug: a post goes to the trash unless `force`; a term
// (which has no trash) is deleted. The answer is the trashed record, or the record as it was.
import type { Row } from "../records.js";
import { forbidden, WpError } from "../errors.js";
import { boolParam } from "../params.js";
import { respond, type WpContext } from "../context.js";
import { writeTransaction } from "../write-transaction.js";
import { findRecord, shown, writeActor } from "./record.js";

export async function deleteView(ctx: WpContext): Promise<void> {
  const { wp } = ctx;
  const m = ctx.model!;
  const noun = m.wordpress!.noun;
  const permission = wp.policy.permission;
  const who = permission.loggedIn(ctx.who);
  // The write locks the row it found and works on what the lock shows; a row deleted in
  // between sends the request round again, to answer as a request arriving after the delete.
  for (;;) {
    const row = await findRecord(ctx);
    if (!permission.mayChange(who, m, row)) throw forbidden(true);
    const force = m.wordpress!.kind === "term" || (boolParam(ctx.params, "force") ?? false);
    const done = await writeTransaction(wp.operations, writeActor(ctx, m), m, async (op) => {
      const { trx } = op;
      // Trashing changes no key: linking the row meanwhile (a key share) need not wait.
      const locked = trx(m.table).where("id", row.id);
      const current: Row | undefined = await (force ? locked.forUpdate() : locked.forNoKeyUpdate()).first();
      if (!current) return null;
      if (!permission.mayChange(who, m, current)) throw forbidden(true);
      if (force) {
        const before = await shown(ctx, m, row.id, op);
        await wp.store.remove(op, m, [row.id]);
        return before;
      }
      if (current.status === "trash") throw new WpError(410, `${noun}-is-in-trash`, `The ${noun} is already trashed`);
      const trashed = wp.store.draft(op, m, row.id);
      Object.assign(trashed.row, { status: "trash", modified: trx.fn.now() });
      await wp.writer.save(trashed);
      // The plugin unlinks a trashed venue or organizer from its events.
      await wp.store.detach(op, m, [row.id]);
      return shown(ctx, m, row.id, op);
    });
    if (done !== null) return respond(ctx, 200, done);
  }
}
