// POST, PUT or PATCH of one record, by id or by slug: a partial update, answered with the
// record as the write left it.
import type { Row } from "../records.js";
import { forbidden } from "../errors.js";
import { respond, type WpContext } from "../context.js";
import { writeTransaction } from "../write-transaction.js";
import { findRecord, shown, writeActor } from "./record.js";
import { termNameFree } from "./term-names.js";

export async function updateView(ctx: WpContext): Promise<void> {
  const { wp } = ctx;
  const m = ctx.model!;
  const permission = wp.policy.permission;
  const who = permission.loggedIn(ctx.who);
  const { id: _id, slug: _slug, ...rest } = ctx.params;
  // Through the slug route the slug names the record; through the id route it is a new slug.
  const body = ctx.args.slug !== undefined ? rest : { ...rest, ...(ctx.params.slug !== undefined ? { slug: ctx.params.slug } : {}) };
  // The write locks the row it found and works on what the lock shows; a row deleted in
  // between sends the request round again, to answer as a request arriving after the delete.
  for (;;) {
    const row = await findRecord(ctx);
    if (!permission.mayChange(who, m, row)) throw forbidden(true);
    const done = await writeTransaction(wp.operations, writeActor(ctx, m), m, async (op) => {
      const { trx } = op;
      // No key update: events written alongside may take a key share on this row to link it.
      const current: Row | undefined = await trx(m.table).where("id", row.id).forNoKeyUpdate().first();
      if (!current) return null;
      if (!permission.mayChange(who, m, current)) throw forbidden(true);
      if (m.wordpress!.kind === "term") await termNameFree(wp.cat, trx, m, body, current);
      await wp.writer.update(op, m, current, body, who);
      // Read in the write's transaction: the answer shows this write, whatever commits next.
      return shown(ctx, m, row.id, op);
    });
    if (done) return respond(ctx, 200, done);
  }
}
