// A model's detail (`…/<id>/`): GET reads one object, PUT and PATCH change it, DELETE removes it.
import { notFound } from "../../../errors.js";
import { presumes } from "../../../db/presumed.js";
import { actionOf } from "../../../features/index.js";
import type { WriteOperation } from "../../../operations/index.js";
import type { Ctx } from "../context.js";
import { actor, confirm, filterFor, isBrief, readBody, readOpts } from "../request.js";
import { modelMethod } from "./allow.js";

export async function detail(ctx: Ctx): Promise<void> {
  const { index, store, operations, policy } = ctx.drf;
  const m = index.model(ctx.match.route.model!);
  ctx.view = { model: m, kind: "detail" };
  const method = await modelMethod(ctx, m, ["PUT"]);
  if (!method) return;
  const by = await actor(ctx, m, "detail");
  const op = await operations.read(by);
  // As DRF's get_object, the detail lookup goes through the filter set: a bad filter is a
  // 400, and an object the filters (or the requester's constraints) exclude is not found.
  const where = await filterFor(ctx, op, m);
  const id = ctx.match.params.id.toLowerCase();
  if (!store.isKey(m, id)) {
    await confirm(ctx, op, where);
    throw notFound();
  }
  if (method === "GET") {
    // One statement: the read itself tells whether the object exists.
    const opts = readOpts(ctx, isBrief(ctx));
    const json = await store.fetchJson(op, m, id, opts, where);
    if (json === null) throw notFound();
    if (json) return policy.renderer(ctx, 200, json);
    const [obj] = await store.fetch(op, m, [id], opts, where);
    if (!obj) throw notFound();
    return policy.renderer(ctx, 200, obj);
  }
  // The object is locked for the write: of parallel deletes one finds it, the others a 404.
  await confirm(ctx, op, where);
  const lockOne = async (w: WriteOperation) => {
    if (!(await store.existing(w, m, [id], { where: where.apply, action: actionOf(method) ?? undefined, lock: true })).length) throw notFound();
  };
  if (method === "DELETE") {
    await operations.run(by, async (w) => {
      await lockOne(w);
      await store.remove(w, m, [id]);
    });
    ctx.res.status(204).end();
    return;
  }
  const body = await readBody(ctx, m);
  const shown = readOpts(ctx);
  const { later } = await operations.run(by, async (w) => {
    // The lock goes out with the body's reads, and its verdict is taken first: a missing object
    // (or one the actor may not change) is the answer before a bad body, and nothing is written
    // before it. A write that presumes (runtime/db/presumed.ts) presumes the object is there,
    // and takes its answer, read with its commit, once that is answered: one round trip where
    // no hook of the model must see the stored row first.
    const presuming = presumes(w.trx);
    const locked = presuming ? store.lockPresumed(w, m, [id], { where: where.apply, action: actionOf(method) ?? undefined }) : lockOne(w);
    locked.catch(() => undefined);
    const updated = store.update(w, m, id, body, { version: ctx.version, partial: method === "PATCH", ahead: true, after: locked });
    updated.catch(() => undefined);
    await locked;
    await updated;
    // In an object: a promise returned would be awaited before the operation's end is sent.
    return { later: presuming ? store.answerAfterCommit(w, m, id, shown) : undefined };
  }, { presume: true });
  // Otherwise read again, routed as any read after a write: to be seen wherever its writer reads now.
  const text = await later ?? (await store.fetch(await operations.read(by), m, [id], { ...shown, unscoped: true }))[0];
  return policy.renderer(ctx, 200, text);
}
