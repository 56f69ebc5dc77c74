// A model's detail (`…/<id>/`): GET reads one object, PUT and PATCH change it, DELETE removes it.
import type { Knex } from "knex";
import { notFound } from "../../../errors.js";
import type { Ctx } from "../context.js";
import { actor, confirm, filterFor, isBrief, readBody, readOpts } from "../request.js";
import { modelMethod } from "./allow.js";

export async function detail(ctx: Ctx): Promise<void> {
  const { index, store, db, operations, policy } = ctx.drf;
  const m = index.model(ctx.match.route.model!);
  ctx.view = { model: m, kind: "detail" };
  const method = await modelMethod(ctx, m, ["PUT"]);
  if (!method) return;
  // As DRF's get_object, the detail lookup goes through the filter set: a bad filter is a
  // 400, and an object the filters (or the requester's constraints) exclude is not found.
  const where = policy.permission.within(ctx, m, await filterFor(ctx, m));
  const id = ctx.match.params.id.toLowerCase();
  if (!store.isKey(m, id)) {
    await confirm(ctx, where);
    throw notFound();
  }
  if (method === "GET") {
    // One statement: the read itself tells whether the object exists.
    const [obj] = await store.fetch(db, m, [id], readOpts(ctx, isBrief(ctx)), where);
    if (!obj) throw notFound();
    return policy.renderer(ctx, 200, obj);
  }
  // The object is locked for the write: of parallel deletes one finds it, the others a 404.
  const userId = ctx.identity?.userId;
  await confirm(ctx, where);
  const lockOne = async (trx: Knex.Transaction) => {
    if (!(await store.existing(trx, m, [id], userId, where.apply, true)).length) throw notFound();
  };
  if (method === "DELETE") {
    await operations.run(actor(ctx, m, "detail"), async (trx) => {
      await lockOne(trx);
      await store.remove(trx, m, [id]);
    });
    ctx.res.status(204).end();
    return;
  }
  const body = await readBody(ctx, m);
  await operations.run(actor(ctx, m, "detail"), async (trx) => {
    await lockOne(trx);
    await store.update(trx, m, id, body, { version: ctx.version, userId, partial: method === "PATCH" });
  });
  const [obj] = await store.fetch(db, m, [id], readOpts(ctx));
  return policy.renderer(ctx, 200, obj);
}
