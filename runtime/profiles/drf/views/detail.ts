// A model's detail (`…/<id>/`): GET reads one object, PUT and PATCH change it, DELETE removes it.
import { notFound } from "../../../errors.js";
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
  await operations.run(by, async (w) => {
    // The lock goes out with the body's reads, and its verdict is taken first: a missing object
    // (or one the actor may not change) is the answer before a bad body, and nothing is written
    // before it.
    const locked = lockOne(w);
    locked.catch(() => undefined);
    const updated = store.update(w, m, id, body, { version: ctx.version, partial: method === "PATCH", ahead: true, after: locked });
    updated.catch(() => undefined);
    await locked;
    await updated;
  }, { presume: true });
  // Routed again: the write is to be seen wherever its writer reads now.
  const [obj] = await store.fetch(await operations.read(by), m, [id], { ...readOpts(ctx), unscoped: true });
  return policy.renderer(ctx, 200, obj);
}
